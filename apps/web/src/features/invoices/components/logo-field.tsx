import { LogoUpload, type LogoUploadProps } from '#src/workspaces/components/logo-upload.tsx'

const accepted = ['image/png', 'image/jpeg']

/** The invoice's logo: a PNG or JPEG (what the PDF can draw), on white as it is printed. */
export function LogoField(props: Omit<LogoUploadProps, 'accepted' | 'wrongType' | 'hint' | 'previewClassName'>) {
	return (
		<LogoUpload
			{...props}
			accepted={accepted}
			wrongType="Choose a PNG or JPEG image: those are what the invoice PDF can draw."
			hint="PNG or JPEG, on a white background; it is printed at the top."
			previewClassName="bg-white"
		/>
	)
}
