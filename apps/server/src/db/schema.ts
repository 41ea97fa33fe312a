// Every table, for Drizzle's typed queries and drizzle-kit. Tables live beside the module
// that owns them; this file only re-exports them.
export * from '#src/core/auth/auth.schema.ts'
export * from '#src/core/subscriptions/subscriptions.schema.ts'
export * from '#src/core/uploads/uploads.schema.ts'
export * from '#src/features/charts/charts.schema.ts'
export * from '#src/features/forms/forms.schema.ts'
export * from '#src/features/invoices/invoices.documents.schema.ts'
export * from '#src/features/invoices/invoices.schema.ts'
export * from '#src/features/invoices/invoices.workspace.schema.ts'
export * from '#src/features/time/time.schema.ts'
export * from '#src/lib/rate-limit.schema.ts'
export * from '#src/workspaces/notion/notion.schema.ts'
export * from '#src/workspaces/workspaces.schema.ts'
