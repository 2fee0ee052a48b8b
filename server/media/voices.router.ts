// tRPC procedures of the announcer list: the voices an app owner can choose for an app's spoken
// replies, given the voice models enabled now (speech.service decides).
import { authedProcedure, router } from "../trpc/trpc";
import { listAvailableVoices } from "./speech.service";
import { ZVoiceList } from "./voices";

export const voicesRouter = router({
  list: authedProcedure.output(ZVoiceList).query(({ ctx }) => listAvailableVoices(ctx.account)),
});
