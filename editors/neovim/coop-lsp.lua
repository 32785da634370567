-- coop-lsp for Neovim 0.7 and newer: the language server and the tree-sitter grammar.
--
-- Put this file on your runtimepath (for example ~/.config/nvim/plugin/coop-lsp.lua),
-- or `dofile()` it from init.lua. Set COOP_LSP_REPO to your checkout of coop-lsp
-- if it is not ~/src/coop-lsp; the server is the `coop-lsp` command its .venv installs, else
-- the one on PATH (pipx install / uv tool install).
-- For highlighting, build the parser once: <repo>/editors/neovim/build-parser.sh
--
-- Needs no plugin. Where an API changed between Neovim versions the snippet
-- asks for the new one and falls back to the old one (0.7 is what Debian 12 ships);
-- tests/test_neovim.py runs it in a headless Neovim.

local repo = vim.env.COOP_LSP_REPO or vim.fn.expand("~/src/coop-lsp")
local server = repo .. "/.venv/bin/coop-lsp"
if vim.fn.executable(server) == 0 then
  server = "coop-lsp" -- on PATH: pipx install / uv tool install (editors/neovim/README.md)
end

local LANG = "wgsl_coop" -- our grammar; nvim-treesitter's own is `wgsl`, so the names never clash
local ROOT_MARKERS = { ".git", "coop-lint.toml", "pyproject.toml" }
local group = vim.api.nvim_create_augroup("coop-lsp", { clear = true })

local warned = {}
local function warn_once(key, message)
  if not warned[key] then
    warned[key] = true
    vim.notify(message, vim.log.levels.WARN)
  end
end

-- Filetype ---------------------------------------------------------------------
if vim.filetype and vim.filetype.add then
  vim.filetype.add({ extension = { wgsl = "wgsl" } })
end
-- 0.7 reads vim.filetype.add only with g:do_filetype_lua, and `nvim -u NONE`
-- detects no filetype at all; `setfiletype` never overrides one already set.
vim.api.nvim_create_autocmd({ "BufNewFile", "BufRead" }, {
  group = group,
  pattern = "*.wgsl",
  command = "setfiletype wgsl",
})

-- Tree-sitter grammar (highlighting; folds and text objects for plugins that read the queries)
-- The parser is <dir>/parser/wgsl_coop.so for a <dir> on 'runtimepath'
-- (build-parser.sh puts it in ~/.local/share/nvim/site), or $COOP_LSP_PARSER.
-- Queries come from <repo>/queries unless 'runtimepath' has queries/wgsl_coop/<name>.scm.
local function find_parser()
  local path = vim.env.COOP_LSP_PARSER
  if path and path ~= "" then
    return vim.loop.fs_stat(path) and path or nil
  end
  return vim.api.nvim_get_runtime_file("parser/" .. LANG .. ".so", false)[1]
end

local function load_language(path)
  local ok, result, err
  if vim.treesitter.language and vim.treesitter.language.add then -- 0.9+
    -- symbol_name: a library built by nvim-treesitter exports only tree_sitter_wgsl.
    ok, result, err = pcall(vim.treesitter.language.add, LANG, { path = path, symbol_name = "wgsl" })
  else -- 0.7, 0.8: the symbol is tree_sitter_wgsl_coop (build-parser.sh exports it)
    ok, result, err = pcall(vim.treesitter.require_language, LANG, path, false, "wgsl")
  end
  -- add() throws (0.9, 0.10) or returns nil, message (0.11+)
  if not ok or result == false or err then
    return false, tostring(err or result)
  end
  return true
end

local function set_query(name, text)
  if vim.treesitter.query.set then -- 0.9+
    vim.treesitter.query.set(LANG, name, text)
  else
    vim.treesitter.query.set_query(LANG, name, text)
  end
end

local function load_queries()
  local names = { "highlights", "locals", "folds", "indents", "textobjects" }
  if vim.fn.has("nvim-0.9") == 1 then
    -- injection.content / injection.language captures mean something from 0.9 on
    table.insert(names, "injections")
  end
  for _, name in ipairs(names) do
    local file = repo .. "/queries/" .. name .. ".scm"
    local on_rtp = #vim.api.nvim_get_runtime_file("queries/" .. LANG .. "/" .. name .. ".scm", false) > 0
    if not on_rtp and vim.fn.filereadable(file) == 1 then
      local ok, err = pcall(set_query, name, table.concat(vim.fn.readfile(file), "\n"))
      if not ok then
        vim.notify("coop-lsp: " .. file .. ": " .. tostring(err), vim.log.levels.WARN)
      end
    end
  end
end

local ts_state -- nil: not tried yet; true: ready; false: no parser
local function treesitter_ready()
  if ts_state == nil then
    local path = find_parser()
    if not path then
      ts_state = false
      warn_once("parser", "coop-lsp: no " .. LANG .. " parser; run " .. repo
        .. "/editors/neovim/build-parser.sh for tree-sitter highlighting")
    else
      local ok, err = load_language(path)
      if ok then
        load_queries()
        if vim.treesitter.language.register then -- 0.9+: :InspectTree, foldexpr, nvim-treesitter modules
          vim.treesitter.language.register(LANG, "wgsl")
        end
      else
        warn_once("parser", "coop-lsp: cannot load " .. path .. ": " .. err)
      end
      ts_state = ok
    end
  end
  return ts_state
end

local function start_highlighting(buf)
  if not treesitter_ready() then
    return
  end
  if vim.treesitter.start then -- 0.8+
    vim.treesitter.start(buf, LANG)
  elseif not vim.treesitter.highlighter.active[buf] then -- 0.7
    vim.treesitter.highlighter.new(vim.treesitter.get_parser(buf, LANG))
  end
end

-- Language server ----------------------------------------------------------------
-- The nearest directory above the file holding one of ROOT_MARKERS, else the file's own.
-- (vim.fs.root is 0.10+ and vim.fs.find 0.8+; this works everywhere.)
local function root_dir(buf)
  local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p:h")
  local here = dir
  while true do
    for _, marker in ipairs(ROOT_MARKERS) do
      if vim.loop.fs_stat(here .. "/" .. marker) then
        return here
      end
    end
    local parent = vim.fn.fnamemodify(here, ":h")
    if parent == here then
      return dir
    end
    here = parent
  end
end

local function client_config(root)
  return {
    name = "coop-lsp",
    cmd = { server }, -- stdio; or vim.lsp.rpc.connect("127.0.0.1", 2087) (0.8+) for `coop-lsp --tcp 127.0.0.1:2087`
    root_dir = root,
    -- Read by the server through workspace/configuration (section "coop-lsp").
    settings = {
      ["coop-lsp"] = {
        dialect = nil, -- "wgpu", "chromium" or "standard"; nil follows the module's `enable`s
        targets = {}, -- device profile names
        rules = vim.empty_dict(), -- e.g. { ["coop.deprecated_builtin"] = false }
        severities = vim.empty_dict(), -- e.g. { T013 = "hint" }
      },
    },
  }
end

local clients_by_root = {} -- 0.7 only: one client per root, shared by its buffers

local function start_server(buf)
  if vim.fn.executable(server) == 0 then
    warn_once("server", "coop-lsp: `" .. server .. "` not found; install it on PATH (pipx install "
      .. "or uv tool install, see editors/neovim/README.md), or run ./dev lint in " .. repo
      .. " once, or set COOP_LSP_REPO")
    return
  end
  local root = root_dir(buf)
  if vim.lsp.start then -- 0.8+: reuses a running client with the same name and root
    vim.lsp.start(client_config(root), { bufnr = buf })
    return
  end
  local id = clients_by_root[root]
  if not id or vim.lsp.client_is_stopped(id) then
    id = vim.lsp.start_client(client_config(root))
    clients_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(buf, id)
  end
end

vim.api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "wgsl",
  callback = function(args)
    start_highlighting(args.buf)
    start_server(args.buf)
  end,
})

-- Inlay hints (inferred types of let/var) where the client supports them (0.10+).
if vim.fn.has("nvim-0.8") == 1 then -- LspAttach is 0.8+
  vim.api.nvim_create_autocmd("LspAttach", {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == "coop-lsp" and vim.lsp.inlay_hint then
        pcall(vim.lsp.inlay_hint.enable, true, { bufnr = args.buf })
      end
    end,
  })
end
