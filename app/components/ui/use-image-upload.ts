// Uploading one picture through antd's Upload: early refusals in the browser for the obvious cases
// (type, size) and the upload itself; the server still decides by the content (SPEC 5).
import { App, Upload, type UploadProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../lib/api-client";
import { postFormData } from "../../lib/post-form-data";

export function useImageUpload<T>(endpoint: string, maxBytes: number, onUploaded: (answer: T) => void) {
  const { t } = useTranslation("errors");
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);

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

  const customRequest: UploadProps["customRequest"] = async ({ file, onSuccess, onError }) => {
    const form = new FormData();
    form.append("file", file as Blob);
    setBusy(true);
    try {
      const answer = await postFormData<T>(endpoint, form, { fallbackError: t("upload_failed") });
      onUploaded(answer);
      onSuccess?.(answer);
    } catch (err) {
      message.error(err instanceof ApiError ? err.description : String(err));
      onError?.(err as Error);
    } finally {
      setBusy(false);
    }
  };

  return { busy, beforeUpload, customRequest };
}
