import pino from "pino";
import { singleton } from "./singleton";

export const logger = singleton("logger", () =>
  pino({
    level: process.env.LOG_LEVEL ?? "info",
    base: { proc: process.env.ZELIN_PROCESS ?? "main" },
  }),
);
