import { LogoUpload, type LogoUploadProps } from '#src/workspaces/components/logo-upload.tsx'

// Never SVG: a drawing can carry script, and the portal is the team's clients' page.
const accepted = ['image/png', 'image/jpeg', 'image/webp']

/** The portal's logo, shown at the top of its pages and on its sign-in page. */
export function LogoField(
	props: Omit<LogoUploadProps, 'accepted' | 'wrongType' | 'hint' | 'previewClassName' | 'isReadOnly'>,
) {
	return (
		<LogoUpload
			{...props}
			accepted={accepted}
			wrongType="Choose a PNG, JPEG or WebP image."
			hint="PNG, JPEG or WebP; shown at the top of every page and on the sign-in page."
			previewClassName="bg-muted/30"
		/>
	)
}
