/**
 * The frame of the sim's self-contained HTML pages (report.html, aggregate.html): the document,
 * its head with the title and the inlined style, and the body as given. Also how a page embeds
 * its data as JSON.
 */
import { escapeHtml } from './htmlTables.js'

/** A whole page: `body` goes between `<body>` and `</body>`, each on a line of its own. */
export function htmlPage(title: string, style: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>
`
}

/** JSON for a `<script type="application/json">` element: `<` as `\u003c` (JSON.parse restores it). */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c')
}
