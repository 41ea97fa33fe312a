import pino from 'pino'

export type Logger = pino.Logger

export function createLogger(level: pino.LevelWithSilent): Logger {
	return pino({
		level,
		base: undefined,
		timestamp: pino.stdTimeFunctions.isoTime,
		// Secrets that may sit in objects we log are replaced before the line is written.
		redact: {
			paths: [
				'*.password',
				'*.token',
				'*.authorization',
				'*.cookie',
				'req.headers.authorization',
				'req.headers.cookie',
			],
			censor: '[redacted]',
		},
	})
}
