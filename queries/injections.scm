;; WGSL embeds no other language. Comments are handed to the `comment`
;; parser where an editor has one (TODO/FIXME highlighting).

([(line_comment) (block_comment)] @injection.content
  (#set! injection.language "comment"))
