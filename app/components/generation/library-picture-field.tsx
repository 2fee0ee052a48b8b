// A picture a generation starts from (a video's first or tail frame, a drawing's reference), as a
// form value: a multimedia-library item, uploaded here into the library or chosen from it. The
// job names the item by its id; the server reads the picture from the library.
import { CloseOutlined, FolderOpenOutlined, PictureOutlined, UploadOutlined } from "@ant-design/icons";
import { App, Button, Upload, type UploadProps } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useMutation } from "../../lib/use-mutation";
import { errorText } from "../../lib/api-client";
import { checkMediaFile, uploadMediaFile } from "../media/media-client";
import { LibraryPickerModal } from "../media/library-picker-modal";

export type TLibraryPicture = { id: string; url: string; name?: string };

const PICTURE_ACCEPT = "image/jpeg,image/png";

type TUploadRequest = Parameters<NonNullable<UploadProps["customRequest"]>>[0];

export function LibraryPictureField({
  value,
  onChange,
  disabled,
  testId,
}: {
  value?: TLibraryPicture | null;
  onChange?: (picture: TLibraryPicture | null) => void;
  disabled?: boolean;
  testId: string;
}) {
  const { t } = useTranslation("generation");
  const { t: te } = useTranslation("errors");
  const { message } = App.useApp();
  const [picking, setPicking] = useState(false);
  const upload = useMutation(
    async ({ file }: TUploadRequest) => {
      const item = await uploadMediaFile(file as File, { fallbackError: te("upload_failed") });
      onChange?.({ id: item.id, url: item.url, name: item.name });
    },
    {
      onError: (err) => {
        void message.error(errorText(err, te("upload_failed")));
        return true;
      },
    },
  );
  const beforeUpload: UploadProps["beforeUpload"] = (file) => {
    const problem = file.type.startsWith("image/") ? checkMediaFile(file) : "media_type_not_allowed";
    if (problem) {
      void message.error(te(problem));
      return Upload.LIST_IGNORE;
    }
    return true;
  };
  return (
    <div className={`generation-picture${disabled ? " generation-picture--disabled" : ""}`} data-testid={testId}>
      <div className="generation-picture__thumb" data-chosen={value?.id ?? ""}>
        {value?.url ? <img src={value.url} alt={value.name ?? ""} data-testid={`${testId}-chosen`} /> : <PictureOutlined aria-hidden />}
      </div>
      <div className="generation-picture__actions">
        <Upload accept={PICTURE_ACCEPT} showUploadList={false} beforeUpload={beforeUpload} customRequest={(r) => void upload.run(r)} disabled={disabled}>
          <Button icon={<UploadOutlined />} loading={upload.busy} disabled={disabled} data-testid={`${testId}-upload`}>
            {t("picture.upload")}
          </Button>
        </Upload>
        <Button icon={<FolderOpenOutlined />} disabled={disabled} onClick={() => setPicking(true)} data-testid={`${testId}-library`}>
          {t("picture.from_library")}
        </Button>
        {value && !disabled && (
          <Button type="text" icon={<CloseOutlined />} onClick={() => onChange?.(null)} aria-label={t("picture.clear")}>
            {t("picture.clear")}
          </Button>
        )}
      </div>
      <LibraryPickerModal
        open={picking}
        kinds="image"
        texts={{ title: t("picture.library_title"), empty: t("picture.library_empty"), use: t("picture.use") }}
        useTestId="generation-library-use"
        onClose={() => setPicking(false)}
        onPick={(item) => {
          setPicking(false);
          onChange?.({ id: item.id, url: item.url, name: item.name });
        }}
      />
    </div>
  );
}
