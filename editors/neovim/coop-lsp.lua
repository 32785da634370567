-- coop-lsp for Neovim (0.10+): the language server and the tree-sitter grammar.
--
-- Put this file on your runtimepath (for example ~/.config/nvim/plugin/coop-lsp.lua),
-- or `dofile()` it from init.lua. Set COOP_LSP_REPO to your checkout of coop-lsp
-- if it is not ~/src/coop-lsp; the server is the `coop-lsp` command its .venv installs.

local repo = vim.env.COOP_LSP_REPO or vim.fn.expand("~/src/coop-lsp")
local server = repo .. "/.venv/bin/coop-lsp"
if vim.fn.executable(server) == 0 then
  server = "coop-lsp" -- installed on PATH instead
end

vim.filetype.add({ extension = { wgsl = "wgsl" } })

-- Language server ------------------------------------------------------------
vim.api.nvim_create_autocmd("FileType", {
  pattern = "wgsl",
  callback = function(args)
    vim.lsp.start({
      name = "coop-lsp",
      cmd = { server }, -- stdio; or vim.lsp.rpc.connect("127.0.0.1", 2087) for `coop-lsp --tcp 127.0.0.1:2087`
      root_dir = vim.fs.root(args.buf, { ".git", "coop-lint.toml", "pyproject.toml" }),
      -- Read by the server through workspace/configuration (section "coop-lsp").
      settings = {
        ["coop-lsp"] = {
          dialect = nil, -- "wgpu", "chromium" or "standard"; nil follows the module's `enable`s
          targets = {}, -- device profile names
          rules = {}, -- e.g. { ["coop.deprecated_builtin"] = false }
          severities = {}, -- e.g. { T013 = "hint" }
        },
      },
    })
  end,
})

-- Inlay hints (inferred types of let/var) where the client supports them.
vim.api.nvim_create_autocmd("LspAttach", {
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == "coop-lsp" and vim.lsp.inlay_hint then
      vim.lsp.inlay_hint.enable(true, { bufnr = args.buf })
    end
  end,
})

-- Tree-sitter grammar (highlighting, folds, indents, text objects) ---------------
-- With nvim-treesitter installed, register our grammar and copy its queries:
--   :TSInstall wgsl_coop
-- then link the queries:  ln -s <repo>/queries ~/.config/nvim/queries/wgsl
local ok, parsers = pcall(require, "nvim-treesitter.parsers")
if ok then
  local configs = parsers.get_parser_configs and parsers.get_parser_configs() or parsers
  configs.wgsl_coop = {
    install_info = {
      url = repo .. "/tree-sitter-wgsl", -- a local path works
      files = { "src/parser.c", "src/scanner.c" },
      branch = "main",
      generate_requires_npm = false,
      requires_generate_from_grammar = false,
    },
    filetype = "wgsl",
  }
  vim.treesitter.language.register("wgsl_coop", "wgsl")
end
