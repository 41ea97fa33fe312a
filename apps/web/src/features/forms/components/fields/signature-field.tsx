import type { AnswerFile } from '@blocksmith/contracts/form-files.ts'
import { useCallback, useEffect, useRef, useState } from 'react'
import SignaturePad from 'signature_pad'
import { controlClasses } from '#src/components/ui/control-classes.ts'
import { type FieldProps, GroupFrame } from './field-frame.tsx'

// A signature: drawn on a canvas (signature_pad: pen, mouse or finger, smooth strokes) or, for
// anyone without a pointer, typed as a name that is written onto the same canvas in a script
// face. Either way the canvas becomes a PNG uploaded like a file (the `upload` files use), and the
// answer is that one file. Uploads wait for a short pause in the drawing so a signature of many
// strokes is sent once; the form waits for them (onBusyChange). Loaded only by forms that have one.

/** Quiet time after the last stroke (or key) before the signature is sent. */
const signatureSettleMs = 600
const canvasHeight = 160
/** Ink on paper, whatever the theme: the PNG goes into documents and rows. */
const paper = '#ffffff'
const ink = '#111827'
const scriptFont = '"Segoe Script", "Brush Script MT", "Snell Roundhand", "Apple Chancery", cursive'

type Status = 'idle' | 'waiting' | 'uploading' | 'failed'

const linkButtonClasses = 'justify-self-start text-[13px] text-link underline-offset-4 hover:underline'

/**
 * Sizes the canvas to its box at the screen's density (at most three pixels a point: sharp on any
 * screen, and a zoomed-in page's PNG stays within the server's 4000 × 4000), keeping what is drawn.
 */
function fitCanvas(canvas: HTMLCanvasElement, pad: SignaturePad | null) {
	const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), 3)
	const width = canvas.offsetWidth
	if (width === 0) {
		return
	}
	const data = pad?.toData() ?? []
	canvas.width = width * ratio
	canvas.height = canvasHeight * ratio
	canvas.getContext('2d')?.scale(ratio, ratio)
	pad?.clear()
	if (data.length > 0) {
		pad?.fromData(data)
	}
}

/** Writes `name` across the canvas in a script face, as large as fits. */
function writeName(canvas: HTMLCanvasElement, pad: SignaturePad | null, name: string) {
	pad?.clear()
	const context = canvas.getContext('2d')
	if (!context || !name.trim()) {
		return
	}
	const width = canvas.offsetWidth || canvas.width
	let size = 48
	context.font = `italic ${size}px ${scriptFont}`
	const measured = context.measureText(name).width
	if (measured > width - 32) {
		size = Math.max(14, Math.floor((size * (width - 32)) / measured))
		context.font = `italic ${size}px ${scriptFont}`
	}
	context.fillStyle = ink
	context.textAlign = 'center'
	context.textBaseline = 'middle'
	context.fillText(name, width / 2, canvasHeight / 2)
}

function canvasPng(canvas: HTMLCanvasElement): Promise<File | null> {
	return new Promise((resolve) => {
		canvas.toBlob(
			(blob) => resolve(blob ? new File([blob], 'signature.png', { type: 'image/png' }) : null),
			'image/png',
		)
	})
}

export function SignatureField(props: FieldProps) {
	const { value, onChange, controlId, upload, onBusyChange } = props
	const saved = Array.isArray(value) ? (value as AnswerFile[]).filter((file) => typeof file === 'object') : []
	const canvasRef = useRef<HTMLCanvasElement>(null)
	const padRef = useRef<SignaturePad | null>(null)
	const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
	const controller = useRef<AbortController | null>(null)
	/** Counts changes and clears: a PNG made before the latest one is never sent. */
	const generation = useRef(0)
	const [mode, setMode] = useState<'draw' | 'type'>('draw')
	const [name, setName] = useState('')
	const typedName = useRef('')
	typedName.current = mode === 'type' ? name : ''
	/** Whether the canvas shows this visit's signature (a restored answer has only its file). */
	const [hasInk, setHasInk] = useState(false)
	const [status, setStatus] = useState<Status>('idle')
	const isBusy = status === 'waiting' || status === 'uploading'

	useEffect(() => {
		onBusyChange?.(isBusy)
	}, [isBusy, onBusyChange])

	const stop = useCallback(() => {
		generation.current++
		if (timer.current) {
			clearTimeout(timer.current)
			timer.current = null
		}
		controller.current?.abort()
		controller.current = null
	}, [])

	const send = async () => {
		const started = generation.current
		const canvas = canvasRef.current
		const file = canvas ? await canvasPng(canvas) : null
		if (started !== generation.current) {
			// Drawn on or cleared while the PNG was made: the newer state is sent (or nothing).
			return
		}
		if (!file || !upload) {
			setStatus('failed')
			return
		}
		const current = new AbortController()
		controller.current = current
		setStatus('uploading')
		try {
			const sent = await upload(file, () => {}, current.signal)
			if (controller.current === current) {
				controller.current = null
				onChange([sent])
				setStatus('idle')
			}
		} catch (error) {
			if ((error as Error).name !== 'AbortError' && controller.current === current) {
				controller.current = null
				setStatus('failed')
			}
		}
	}

	/** A change to the signature: the last one is sent once the visitor pauses. */
	const changed = () => {
		stop()
		setHasInk(true)
		setStatus('waiting')
		timer.current = setTimeout(() => {
			timer.current = null
			void latest.current.send()
		}, signatureSettleMs)
	}
	// The pad is made once: its stroke listener calls the latest functions (the form passes a new
	// onChange on every render, and remaking the pad would wipe the drawing).
	const latest = useRef({ send, changed })
	latest.current = { send, changed }

	const clear = () => {
		stop()
		padRef.current?.clear()
		setName('')
		setHasInk(false)
		setStatus('idle')
		onChange([])
	}

	useEffect(() => {
		const canvas = canvasRef.current
		if (!canvas) {
			return
		}
		let pad: SignaturePad | null = null
		try {
			pad = new SignaturePad(canvas, { backgroundColor: paper, penColor: ink })
		} catch {
			// No 2D canvas (a very old or locked-down browser): typing the name is still offered.
			return
		}
		padRef.current = pad
		const onStroke = () => latest.current.changed()
		pad.addEventListener('endStroke', onStroke)
		fitCanvas(canvas, pad)
		const observer =
			typeof ResizeObserver === 'undefined'
				? null
				: new ResizeObserver(() => {
						fitCanvas(canvas, pad)
						// Resizing clears the canvas: a typed name is written again (strokes come back from the pad's data).
						if (typedName.current) {
							writeName(canvas, pad, typedName.current)
						}
					})
		observer?.observe(canvas)
		return () => {
			observer?.disconnect()
			pad?.removeEventListener('endStroke', onStroke)
			pad?.off()
			padRef.current = null
		}
	}, [])

	const nameRef = useRef<HTMLInputElement>(null)
	const isSwitched = useRef(false)
	useEffect(() => {
		if (mode === 'type') {
			padRef.current?.off()
		} else {
			padRef.current?.on()
		}
		// After the visitor switches (not on the first render), straight to the box they chose.
		if (isSwitched.current && mode === 'type') {
			nameRef.current?.focus()
		}
	}, [mode])

	// Leaving the page (or the field hidden by a rule) stops a pending upload.
	useEffect(() => stop, [stop])

	const type = (text: string) => {
		setName(text)
		const canvas = canvasRef.current
		if (canvas) {
			writeName(canvas, padRef.current, text)
		}
		if (text.trim()) {
			changed()
		} else {
			stop()
			setHasInk(false)
			setStatus('idle')
			onChange([])
		}
	}

	const switchMode = () => {
		isSwitched.current = true
		clear()
		setMode(mode === 'draw' ? 'type' : 'draw')
	}

	const isSigned = saved.length > 0 || hasInk
	const message = {
		idle: saved.length > 0 ? 'Signature saved.' : '',
		waiting: '',
		uploading: 'Saving your signature…',
		failed: "Your signature couldn't be saved.",
	}[status]

	return (
		<GroupFrame {...props}>
			<div className="relative">
				<canvas
					ref={canvasRef}
					role="img"
					aria-label={
						mode === 'draw' ? 'Signature pad: draw your signature with a mouse, pen or finger' : 'Your typed signature'
					}
					style={{ height: canvasHeight }}
					className={`block w-full touch-none rounded-md border bg-white ${props.error ? 'border-error' : 'border-input'} ${mode === 'draw' ? 'cursor-crosshair' : ''}`}
				/>
				{saved.length > 0 && !hasInk ? (
					<p className="pointer-events-none absolute inset-0 flex items-center justify-center text-center text-gray-600 text-sm">
						Signed earlier. Clear to sign again.
					</p>
				) : null}
				<div aria-hidden="true" className="pointer-events-none absolute inset-x-6 bottom-8 border-gray-300 border-b" />
			</div>
			{mode === 'type' ? (
				<div className="grid gap-1.5">
					<label htmlFor={controlId} className="text-foreground text-sm">
						Your full name
					</label>
					<input
						ref={nameRef}
						id={controlId}
						type="text"
						autoComplete="name"
						value={name}
						className={`${controlClasses} h-10 py-1 sm:h-9`}
						onChange={(event) => type(event.target.value)}
					/>
				</div>
			) : null}
			<div className="flex flex-wrap items-center gap-x-4 gap-y-2">
				<button
					type="button"
					id={mode === 'draw' ? controlId : undefined}
					className={linkButtonClasses}
					onClick={switchMode}
				>
					{mode === 'draw' ? 'Type your name instead' : 'Draw instead'}
				</button>
				{isSigned ? (
					<button type="button" className={linkButtonClasses} onClick={clear}>
						Clear signature
					</button>
				) : null}
				{status === 'failed' ? (
					<button type="button" className={linkButtonClasses} onClick={() => void send()}>
						Try again
					</button>
				) : null}
			</div>
			<p className={`text-[13px] ${status === 'failed' ? 'text-error' : 'text-muted-foreground'}`} aria-live="polite">
				{message}
			</p>
		</GroupFrame>
	)
}
