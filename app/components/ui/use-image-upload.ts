// Uploading one picture through antd's Upload: early refusals in the browser for the obvious cases
// (type, size) and the upload itself; the server still decides by the content (server/uploads/sniff.ts).
import { App, Upload, type UploadProps } from "antd";
import { useTranslation } from "react-i18next";
import { postFormData } from "../../lib/post-form-data";
import { useMutation } from "../../lib/use-mutation";

type TUploadRequest = Parameters<NonNullable<UploadProps["customRequest"]>>[0];

export function useImageUpload<T>(endpoint: string, maxBytes: number, onUploaded: (answer: T) => void) {
  const { t } = useTranslation("errors");
  const { message } = App.useApp();

  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    if (file.type && !["image/jpeg", "image/png"].includes(file.type)) {
      message.error(t("file_type_not_allowed"));
      return Upload.LIST_IGNORE;
    }
    if (file.size > maxBytes) {
      message.error(t("file_too_large"));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const upload = useMutation(
    async ({ file, onSuccess }: TUploadRequest) => {
      const form = new FormData();
      form.append("file", file as Blob);
      const answer = await postFormData<T>(endpoint, form, { fallbackError: t("upload_failed") });
      onUploaded(answer);
      onSuccess?.(answer);
    },
    { onError: (err, { onError }) => void onError?.(err as Error) },
  );
  const customRequest: UploadProps["customRequest"] = (request) => void upload.run(request);
  const busy = upload.busy;

  return { busy, beforeUpload, customRequest };
}
