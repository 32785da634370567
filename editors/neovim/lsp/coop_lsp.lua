-- coop-lsp for Neovim 0.11+, in the `lsp/<name>.lua` convention of `vim.lsp.config`
-- (the same form nvim-lspconfig uses for its own entries).
--
-- Put the `lsp/` folder that holds this file on your 'runtimepath' (or copy this file to
-- ~/.config/nvim/lsp/coop_lsp.lua), then in init.lua:
--
--   vim.lsp.enable("coop_lsp")
--
-- Neovim merges this table with anything given to vim.lsp.config("coop_lsp", {...}),
-- so settings can be changed there without editing this file. For Neovim 0.7 to 0.10,
-- use ../coop-lsp.lua instead; it also sets up the tree-sitter grammar.

local repo = vim.env.COOP_LSP_REPO or vim.fn.expand("~/src/coop-lsp")
local server = repo .. "/.venv/bin/coop-lsp"
if vim.fn.executable(server) == 0 then
  server = "coop-lsp" -- on PATH: pipx install / uv tool install (editors/neovim/README.md)
end

return {
  cmd = { server },
  filetypes = { "wgsl" },
  -- A folder with one of these is the workspace; coop-lint.toml and pyproject.toml
  -- hold [tool.coop-lint], which the server reads per file.
  root_markers = { "coop-lint.toml", "pyproject.toml", ".git" },
  settings = {
    ["coop-lsp"] = {
      -- dialect = "chromium",            -- auto | wgpu | chromium | standard
      -- targets = { "nvidia-h100" },     -- device profiles to check matrix configurations against
    },
  },
}
