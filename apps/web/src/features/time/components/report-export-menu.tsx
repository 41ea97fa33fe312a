import { Download } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuGroup,
	DropdownMenuItem,
	DropdownMenuLabel,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import {
	downloadFile,
	type ExportDetail,
	type ExportFormat,
	exportFileName,
	exportPath,
	type ToolView,
} from '../api/reports.ts'

const formats: { format: ExportFormat; label: string }[] = [
	{ format: 'csv', label: 'CSV' },
	{ format: 'xlsx', label: 'Excel (XLSX)' },
	{ format: 'pdf', label: 'PDF' },
]

/** Downloads of the saved view: each format as its entries (a line per entry and day) or its summary. */
export function ReportExportMenu({ view }: { view: ToolView }) {
	const [isBusy, setIsBusy] = useState(false)

	async function download(format: ExportFormat, detail: ExportDetail): Promise<void> {
		setIsBusy(true)
		try {
			await downloadFile(exportPath(view, format, detail), exportFileName(view.name, detail, format))
		} catch (error) {
			toast.error(errorMessage(error))
		} finally {
			setIsBusy(false)
		}
	}

	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<Button variant="outline" isLoading={isBusy}>
					{isBusy ? null : <Download aria-hidden />} Export
				</Button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="end">
				{(['entries', 'summary'] as const).map((detail, index) => (
					<DropdownMenuGroup key={detail}>
						{index > 0 ? <DropdownMenuSeparator /> : null}
						<DropdownMenuLabel>{detail === 'entries' ? 'Every entry' : 'Summary by grouping'}</DropdownMenuLabel>
						{formats.map(({ format, label }) => (
							<DropdownMenuItem key={format} onSelect={() => void download(format, detail)}>
								{label} {detail === 'entries' ? 'entries' : 'summary'}
							</DropdownMenuItem>
						))}
					</DropdownMenuGroup>
				))}
			</DropdownMenuContent>
		</DropdownMenu>
	)
}
