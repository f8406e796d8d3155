// Independent oracle for urlint's extraction accuracy: which URLs a Markdown
// or HTML file holds, according to parsers from another ecosystem.
//
// Usage: node oracle.mjs ROOT LISTFILE > oracle.jsonl
//   LISTFILE names one file per line, relative to ROOT.
//
// Markdown (.md, .markdown) goes through micromark, remark's CommonMark
// tokenizer, with the GFM extensions (tables, strikethrough, footnotes, task
// lists, autolink literals); its events give exact source offsets. HTML files
// and the raw HTML inside Markdown go through parse5, the HTML5 parser.
//
// One JSON line per file:
//   {"path", "items": [{url, decoded, kind, start, end, line}], "regions": [[start, end, kind]]}
// with byte offsets into the file as read (UTF-8), 1-based lines, and kinds
//   destination  inline link or image destination, (start, end) its source bytes
//   definition   reference definition destination
//   autolink     <scheme:...>
//   bare         GFM autolink literal in text (http://, https://, mailto:, xmpp:)
//   attr         href/src/srcset/action/cite/... value, or a meta refresh URL
//   html-text    GFM-literal URL in the visible text of HTML
// and regions: "code" (code spans, fenced and indented code blocks) and "html"
// (raw HTML in Markdown). Only URLs in scope (see README.md) are listed.

import fs from 'node:fs'
import path from 'node:path'
import {parse, postprocess, preprocess} from 'micromark'
import {gfm} from 'micromark-extension-gfm'
import {fromMarkdown} from 'mdast-util-from-markdown'
import {gfmFromMarkdown} from 'mdast-util-gfm'
import * as parse5 from 'parse5'

// Schemes that urlint's scanner treats as URLs without `//`; any other
// scheme is in scope only when `//` follows its colon.
const KNOWN_SCHEMES = new Set([
  'afs', 'cid', 'file', 'ftp', 'ftps', 'git', 'gopher', 'http', 'https', 'irc',
  'ircs', 'ldap', 'ldaps', 'mailserver', 'mailto', 'mid', 'news', 'nfs', 'nntp',
  'prospero', 'rtsp', 'sftp', 'sip', 'sips', 'ssh', 'svn', 'tel', 'telnet',
  'tn3270', 'urn', 'wais', 'ws', 'wss', 'xmpp', 'z39.50'
])

// Attributes whose value is one URL (HTML's URL-valued attributes that urlint's
// HTML mode reads); srcset and meta refresh are handled separately.
const URL_ATTRIBUTES = new Set([
  'href', 'src', 'action', 'cite', 'formaction', 'poster', 'background',
  'longdesc', 'data', 'codebase', 'manifest'
])

// Elements whose text is verbatim or not shown: no bare URLs are read there,
// as code spans and code blocks are skipped in Markdown.
const VERBATIM_ELEMENTS = new Set(['code', 'pre', 'script', 'style', 'textarea', 'kbd', 'samp', 'template'])

const MARKDOWN_SUFFIXES = ['.md', '.markdown']
const HTML_SUFFIXES = ['.html', '.htm']

/** True when `url` is an absolute URL urlint would consider (scope rule). */
export function inScope(url) {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(url)
  if (!match) return false
  const [, scheme, rest] = match
  // `http::StatusCode` is a rustdoc intra-doc link, not a URL.
  if (rest.startsWith(':')) return false
  const slashes = rest.startsWith('//')
  if (!slashes && !KNOWN_SCHEMES.has(scheme.toLowerCase())) return false
  return rest.replace(/^\/+/, '').length > 0
}

/** Maps UTF-16 offsets of `text` to UTF-8 byte offsets (plus `base`). */
function byteOffsets(text, base) {
  const table = new Uint32Array(text.length + 1)
  let bytes = base
  for (let index = 0; index < text.length; index++) {
    table[index] = bytes
    const code = text.charCodeAt(index)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff) {
      table[index + 1] = bytes
      bytes += 4
      index++
    } else bytes += 3
  }
  table[text.length] = bytes
  return table
}

/** HTML5 attribute values are URLs after ASCII whitespace is stripped. */
function trimAsciiSpace(value) {
  return value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '')
}

/** Where the value of attribute `name` sits inside `source` (an attribute's text). */
function valueWithin(source) {
  const equals = source.indexOf('=')
  if (equals < 0) return null
  let start = equals + 1
  while (/[\t\n\f\r ]/.test(source[start] || '')) start++
  let end = source.length
  if (source[start] === '"' || source[start] === "'") {
    const quote = source[start]
    start++
    const close = source.indexOf(quote, start)
    end = close < 0 ? source.length : close
  }
  return [start, end]
}

/** URL candidates of a srcset value: each candidate's URL, with offsets within the value. */
function srcsetUrls(value) {
  const found = []
  const pattern = /[^\t\n\f\r ,][^\t\n\f\r ]*/g
  let position = 0
  while (position < value.length) {
    while (position < value.length && /[\t\n\f\r ,]/.test(value[position])) position++
    if (position >= value.length) break
    pattern.lastIndex = position
    const match = pattern.exec(value)
    if (!match) break
    let url = match[0]
    let end = match.index + url.length
    // A URL ending in commas ends there; descriptors follow up to the next comma.
    const stripped = url.replace(/,+$/, '')
    const ended = stripped.length !== url.length
    url = stripped
    found.push([url, match.index])
    position = end
    if (!ended) {
      const comma = value.indexOf(',', position)
      position = comma < 0 ? value.length : comma + 1
    }
  }
  return found
}

/** GFM literal URLs in a plain text value (visible HTML text), as [url, index] pairs. */
function literalsInText(text) {
  // The text is already decoded; only the autolink-literal construct should
  // act, so everything that would read the text as Markdown is switched off.
  const off = {
    disable: {
      null: [
        'codeIndented', 'codeFenced', 'codeText', 'htmlFlow', 'htmlText', 'autolink',
        'labelStartLink', 'labelStartImage', 'characterReference', 'characterEscape',
        'definition', 'headingAtx', 'setextUnderline', 'thematicBreak', 'list', 'blockQuote'
      ]
    }
  }
  const lines = text.split('\n')
  const found = []
  let lineStart = 0
  for (const line of lines) {
    const indent = line.length - line.trimStart().length
    const body = line.trimStart()
    if (/https?:\/\/|mailto:|xmpp:/i.test(body)) {
      for (const item of markdownItems(body, [gfm(), off], 0, null).items) {
        if (item.kind === 'bare') found.push([item.url, lineStart + indent + item.start16])
      }
    }
    lineStart += line.length + 1
  }
  return found
}

/** Attribute and visible-text URLs of an HTML document or fragment. */
function htmlItems(html, baseOffset16, baseLine, isDocument) {
  const items = []
  const tree = isDocument
    ? parse5.parse(html, {sourceCodeLocationInfo: true})
    : parse5.parseFragment(html, {sourceCodeLocationInfo: true})
  const add = (url, kind, start16, decodedFrom) => {
    const clean = trimAsciiSpace(url)
    if (!inScope(clean)) return
    const lead = url.indexOf(clean)
    const at = start16 + Math.max(lead, 0)
    items.push({url: clean, decoded: clean, kind, start16: baseOffset16 + at, end16: baseOffset16 + at + clean.length, raw: decodedFrom})
  }
  const walk = (node, verbatim) => {
    if (node.attrs && node.sourceCodeLocation && node.sourceCodeLocation.attrs) {
      for (const attr of node.attrs) {
        const location = node.sourceCodeLocation.attrs[attr.name]
        if (!location) continue
        const source = html.slice(location.startOffset, location.endOffset)
        const within = valueWithin(source)
        const valueStart = location.startOffset + (within ? within[0] : 0)
        const rawValue = within ? source.slice(within[0], within[1]) : ''
        // Offsets are exact when no entity changed the value's length.
        const exact = rawValue === attr.value
        const name = attr.name.toLowerCase()
        if (URL_ATTRIBUTES.has(name)) {
          add(attr.value, 'attr', exact ? valueStart : valueStart, !exact)
        } else if (name === 'srcset' || name === 'imagesrcset') {
          for (const [url, index] of srcsetUrls(attr.value)) add(url, 'attr', valueStart + (exact ? index : 0), !exact)
        } else if (name === 'content' && node.tagName === 'meta' &&
          node.attrs.some(a => a.name === 'http-equiv' && a.value.toLowerCase() === 'refresh')) {
          const refresh = /^\s*\d*\.?\d*\s*[;,]?\s*(?:url\s*=\s*)?(['"]?)(.*?)\1\s*$/is.exec(attr.value)
          if (refresh && refresh[2]) {
            const index = attr.value.indexOf(refresh[2])
            add(refresh[2], 'attr', valueStart + (exact ? index : 0), !exact)
          }
        }
      }
    }
    const inside = verbatim || VERBATIM_ELEMENTS.has(node.tagName)
    if (node.nodeName === '#text' && !verbatim && node.sourceCodeLocation) {
      for (const [url, index] of literalsInText(node.value)) {
        const raw = html.slice(node.sourceCodeLocation.startOffset, node.sourceCodeLocation.endOffset)
        const exact = raw === node.value
        const at = node.sourceCodeLocation.startOffset + (exact ? index : Math.max(raw.indexOf(url), 0))
        items.push({url, decoded: url, kind: 'html-text', start16: baseOffset16 + at, end16: baseOffset16 + at + url.length})
      }
    }
    const children = node.content ? node.content.childNodes : node.childNodes
    for (const child of children || []) walk(child, inside)
  }
  walk(tree, false)
  return items
}

/** Unescapes what CommonMark decodes in a destination: backslash escapes and character references. */
function decodeDestination(raw) {
  if (!raw.includes('\\') && !raw.includes('&')) return raw
  const tree = fromMarkdown(`[x](<${raw.replace(/[<>\n]/g, ' ')}>)`)
  const link = tree.children[0] && tree.children[0].children && tree.children[0].children[0]
  return link && link.type === 'link' ? link.url : raw
}

/** Links, definitions, autolinks, literals and regions of one Markdown text, offsets in UTF-16 units. */
function markdownItems(text, extensions, baseOffset16, regions) {
  const events = postprocess(parse({extensions}).document().write(preprocess()(text, undefined, true)))
  const items = []
  for (const [phase, token] of events) {
    if (phase !== 'enter') continue
    const start = token.start.offset
    const end = token.end.offset
    const source = () => text.slice(start, end)
    switch (token.type) {
      case 'resourceDestinationString':
      case 'definitionDestinationString': {
        const raw = source()
        const kind = token.type === 'definitionDestinationString' ? 'definition' : 'destination'
        items.push({url: raw, decoded: decodeDestination(raw), kind, start16: start, end16: end})
        break
      }
      case 'autolinkProtocol':
        items.push({url: source(), decoded: source(), kind: 'autolink', start16: start, end16: end})
        break
      case 'literalAutolinkHttp':
        items.push({url: source(), decoded: source(), kind: 'bare', start16: start, end16: end})
        break
      case 'literalAutolinkEmail': {
        // GFM's extended protocol autolinks: `mailto:` and `xmpp:` before an
        // address belong to the link.
        const before = text.slice(Math.max(0, start - 7), start)
        const scheme = /(mailto:|xmpp:)$/i.exec(before)
        if (scheme) {
          const from = start - scheme[1].length
          const url = text.slice(from, end)
          items.push({url, decoded: url, kind: 'bare', start16: from, end16: end})
        }
        break
      }
      case 'codeFenced':
      case 'codeIndented':
      case 'codeText':
        if (regions) regions.push([start, end, 'code'])
        break
      case 'htmlFlow':
      case 'htmlText': {
        if (regions) regions.push([start, end, 'html'])
        for (const item of htmlItems(source(), start, token.start.line, false)) items.push(item)
        break
      }
      default:
    }
  }
  if (regions) inlineTagsMicromarkMisses(text, events, items, regions)
  for (const item of items) {
    item.start16 += baseOffset16
    item.end16 += baseOffset16
  }
  return {items: items.filter(item => inScope(item.url) || inScope(item.decoded)), events}
}

// CommonMark's open tag (spec section 6.6). An unquoted attribute value may
// hold `/`, but micromark ends it there, so `<img src=https://x.example/a.png>`
// is raw HTML for CommonMark (cmark, markdown-it) and plain text for micromark.
const OPEN_TAG = /<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^"'=<>`\x00-\x20]+|'[^']*'|"[^"]*"))?)*\s*\/?>/g
const UNQUOTED_WITH_SLASH = /=\s*[^"'=<>`\x00-\x20\/]*\//

/** Raw inline HTML that CommonMark sees and micromark does not: its URLs replace the literals micromark found inside it. */
function inlineTagsMicromarkMisses(text, events, items, regions) {
  const closed = []
  for (const [phase, token] of events) {
    if (phase === 'enter' && /^(code|html|resourceDestination$|definition$|autolink$)/.test(token.type)) {
      closed.push([token.start.offset, token.end.offset])
    }
  }
  const overlaps = (start, end) => closed.some(([from, to]) => start < to && from < end)
  for (const match of text.matchAll(OPEN_TAG)) {
    const start = match.index
    const end = start + match[0].length
    if (!UNQUOTED_WITH_SLASH.test(match[0]) || overlaps(start, end)) continue
    for (let index = items.length - 1; index >= 0; index--) {
      if (items[index].kind === 'bare' && items[index].start16 >= start && items[index].start16 < end) items.splice(index, 1)
    }
    regions.push([start, end, 'html'])
    for (const item of htmlItems(match[0], start, 0, false)) items.push(item)
  }
}

/** Literal links that remark's tree holds beyond the tokenizer's (GFM's second, transform-time algorithm). */
function transformOnlyLiterals(text, items) {
  // The transform finds literals the tokenizer cannot, such as those inside
  // brackets (`[see http://x.example/]`); it leaves them without a position,
  // so they are found in the source after the previous positioned node.
  const tree = fromMarkdown(text, {extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()]})
  const tokenized = new Set(items.filter(item => item.kind === 'bare').map(item => item.start16))
  const extra = []
  const walk = (node, from) => {
    let cursor = node.position ? node.position.start.offset : from
    for (const child of node.children || []) {
      if (child.type === 'link' && !child.position && /^(https?:\/\/|mailto:|xmpp:)/i.test(child.url)) {
        const first = child.children && child.children[0]
        const shown = first && first.type === 'text' ? first.value : null
        const at = shown === null ? -1 : text.indexOf(shown, cursor)
        // `www.` links and bare addresses have no scheme in the source: out of scope.
        if (at >= 0 && !tokenized.has(at) && inScope(shown)) {
          extra.push({url: shown, decoded: child.url, kind: 'bare', start16: at, end16: at + shown.length})
          cursor = at + shown.length
        }
        continue
      }
      walk(child, cursor)
      if (child.position) cursor = child.position.end.offset
    }
  }
  walk(tree, 0)
  return extra
}

/** Line number (1-based) of each UTF-16 offset, by binary search over line starts. */
function lineIndex(text) {
  const starts = [0]
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) === 10) starts.push(index + 1)
  return offset => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle] <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }
}

/** The oracle's record for one file. */
export function oracleFor(relative, bytes) {
  let text = bytes.toString('utf8')
  let bom = 0
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1)
    bom = 3
  }
  const lower = relative.toLowerCase()
  const regions16 = []
  let items = []
  if (MARKDOWN_SUFFIXES.some(suffix => lower.endsWith(suffix))) {
    items = markdownItems(text, [gfm()], 0, regions16).items
    items = items.concat(transformOnlyLiterals(text, items))
  } else if (HTML_SUFFIXES.some(suffix => lower.endsWith(suffix))) {
    items = htmlItems(text, 0, 1, true)
  }
  const bytesAt = byteOffsets(text, bom)
  const lineOf = lineIndex(text)
  items.sort((a, b) => a.start16 - b.start16)
  return {
    path: relative,
    items: items.map(item => ({
      url: item.url,
      decoded: item.decoded,
      kind: item.kind,
      start: bytesAt[Math.min(item.start16, text.length)],
      end: bytesAt[Math.min(item.end16, text.length)],
      line: lineOf(item.start16)
    })),
    regions: regions16.map(([start, end, kind]) => [bytesAt[start], bytesAt[end], kind])
  }
}

function main() {
  const [root, listFile] = process.argv.slice(2)
  if (!root || !listFile) {
    process.stderr.write('usage: node oracle.mjs ROOT LISTFILE > oracle.jsonl\n')
    process.exit(2)
  }
  const names = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean)
  const out = []
  let failed = 0
  for (const relative of names) {
    try {
      out.push(JSON.stringify(oracleFor(relative, fs.readFileSync(path.join(root, relative)))))
    } catch (error) {
      failed++
      process.stderr.write(`oracle: ${relative}: ${error.message}\n`)
      out.push(JSON.stringify({path: relative, error: String(error.message), items: [], regions: []}))
    }
    if (out.length >= 200) {
      fs.writeSync(1, out.join('\n') + '\n')
      out.length = 0
    }
  }
  if (out.length) fs.writeSync(1, out.join('\n') + '\n')
  process.stderr.write(`oracle: ${names.length} files, ${failed} failed\n`)
}

if (import.meta.url === `file://${process.argv[1]}`) main()
