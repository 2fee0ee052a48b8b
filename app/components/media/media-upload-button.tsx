// "Upload": pictures and videos, several at once, each checked early by size (the server decides
// the type from the content and keeps the day's count).
import { UploadOutlined } from "@ant-design/icons";
import { App, Button, Upload, type UploadProps } from "antd";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "../../lib/api-client";
import { displayFileName } from "../../lib/file-name";
import { useMutation } from "../../lib/use-mutation";
import { MEDIA_ACCEPT } from "../../../server/uploads/upload-limits";
import { checkMediaFile, uploadMediaFile, type TMediaItem } from "./media-client";

type TUploadRequest = Parameters<NonNullable<UploadProps["customRequest"]>>[0];

export function MediaUploadButton({
  disabled,
  onUploaded,
  type = "primary",
}: {
  disabled?: boolean;
  onUploaded: (item: TMediaItem) => void;
  type?: "primary" | "default";
}) {
  const { t } = useTranslation("media");
  const { t: te } = useTranslation("errors");
  const { message } = App.useApp();
  const stopped = useRef(false);

  const beforeUpload: UploadProps["beforeUpload"] = (file, list) => {
    // A new choice of files starts with its messages on again.
    if (file === list[0]) stopped.current = false;
    const problem = checkMediaFile(file);
    if (problem) {
      message.error(`${displayFileName(file.name)}: ${te(problem)}`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };
  const upload = useMutation(
    async ({ file, onSuccess }: TUploadRequest) => {
      const item = await uploadMediaFile(file as File, { fallbackError: te("upload_failed") });
      message.success(t("uploaded", { name: displayFileName(item.name) }));
      onUploaded(item);
      onSuccess?.(item);
    },
    {
      onError: (err, { file, onError }) => {
        // After the day's limit, the other files of the same choice would say the same thing.
        if (!stopped.current) message.error(`${displayFileName((file as File).name)}: ${errorText(err, te("upload_failed"))}`);
        if (err instanceof ApiError && err.status === 420208) stopped.current = true;
        onError?.(err as Error);
        return true;
      },
    },
  );
  const customRequest: UploadProps["customRequest"] = (request) => void upload.run(request);
  return (
    <Upload accept={MEDIA_ACCEPT} multiple showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest} disabled={disabled}>
      <Button type={type} icon={<UploadOutlined />} loading={upload.busy} disabled={disabled} data-testid="media-upload">
        {t("actions.upload")}
      </Button>
    </Upload>
  );
}
