-- The grader of lesson 505's exercise (clothcheck lesson 505 --check [DIR] [--hint K]): the
-- scatter-add of a triangle's force and of its df/dx blocks, on a triangle with vertices 7, 2, 5
-- of a 9-vertex cloth whose f and K already hold other triangles' numbers, and Baraff & Witkin's
-- A, b of a 3 x 3 cloth against a reference assembled here. A failing scatter-add is named from
-- where its numbers landed -- "wrong-vertex" (naming the vertices), "transposed", "missing",
-- "doubled", "sign", "overwritten" -- and a cloth assembled with it is put through
-- cc.check_system, the engine of `clothcheck check-system`, whose first finding is shown. A, b:
-- "sign" (+ h df/dv or + h^2 df/dx), "h-power" (h df/dx in A), "rhs" (b = h f).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local grade = require "grade"
local cc = require "clothcheck"

local TERMS = {{cc.condition("stretch", "bw98"), 50}, {cc.condition("shear", "bw98"), 5}}
local K_DAMP, H, TRI, NV = 0.5, 0.01, {7, 2, 5}, 9

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end
local function rnd() return 2 * math.random() - 1 end

-- the reference: triangle t's energy, force and full 9 x 9 df/dx, df/dv (as the exercise's
-- M.element computes them), and the cloth's, scattered entry by entry
local function element(cloth, x, v, t)
  local xe, ve = {}, {}
  for p, i in ipairs(cloth.tris[t]) do for s = 1, 3 do xe[3 * p - 3 + s], ve[3 * p - 3 + s] = x[3 * i - 3 + s], v[3 * i - 3 + s] end end
  local E, fe, Kx, Kv = 0, {}, {}, {}
  for I = 1, 9 do fe[I], Kx[I], Kv[I] = 0, {}, {}; for J = 1, 9 do Kx[I][J], Kv[I][J] = 0, 0 end end
  for _, term in ipairs(TERMS) do
    local r, k = term[1]:eval(xe, {uv = cloth.uv[t]}), term[2]
    for c = 1, #r.value do
      local C, g, Hs, Cdot = r.value[c], r.gradient[c], r.hessian[c], 0
      for I = 1, 9 do Cdot = Cdot + g[I] * ve[I] end
      E = E + k / 2 * C * C
      for I = 1, 9 do
        fe[I] = fe[I] - k * C * g[I] - K_DAMP * Cdot * g[I]
        for J = 1, 9 do Kx[I][J], Kv[I][J] = Kx[I][J] - k * (g[I] * g[J] + C * Hs[I][J]), Kv[I][J] - K_DAMP * g[I] * g[J] end
      end
    end
  end
  return E, fe, Kx, Kv
end
local function upper(K)   -- the stored blocks[p][q], p <= q, of a 9 x 9 matrix
  local b = {}
  for p = 1, 3 do b[p] = {} for q = p, 3 do
    b[p][q] = {}
    for s = 1, 3 do b[p][q][s] = {} for u = 1, 3 do b[p][q][s][u] = K[3 * p - 3 + s][3 * q - 3 + u] end end
  end end
  return b
end
local function zeros(n) local K = {} for r = 1, n do K[r] = {} for c = 1, n do K[r][c] = 0 end end return K end
-- the cloth's E, f, df/dx, df/dv; add_force / add_blocks (the student's) replace the reference's
local function assemble(cloth, x, v, add_force, add_blocks)
  local n, E, f = 3 * cloth.n, 0, {}
  local Kx, Kv = zeros(n), zeros(n)
  for r = 1, n do f[r] = 0 end
  for t, tri in ipairs(cloth.tris) do
    local Et, fe, kx, kv = element(cloth, x, v, t)
    E = E + Et
    if add_force then f = add_force(f, copy(tri), fe) or f
    else for p, i in ipairs(tri) do for s = 1, 3 do f[3 * i - 3 + s] = f[3 * i - 3 + s] + fe[3 * p - 3 + s] end end end
    if add_blocks then Kx, Kv = add_blocks(Kx, copy(tri), upper(kx)) or Kx, add_blocks(Kv, copy(tri), upper(kv)) or Kv
    else
      for p, i in ipairs(tri) do for q, j in ipairs(tri) do for s = 1, 3 do for u = 1, 3 do
        Kx[3 * i - 3 + s][3 * j - 3 + u] = Kx[3 * i - 3 + s][3 * j - 3 + u] + kx[3 * p - 3 + s][3 * q - 3 + u]
        Kv[3 * i - 3 + s][3 * j - 3 + u] = Kv[3 * i - 3 + s][3 * j - 3 + u] + kv[3 * p - 3 + s][3 * q - 3 + u]
      end end end end
    end
  end
  return E, f, Kx, Kv
end

local MESH = cc.grid(3, 3, 1, 1)
local CLOTH = {n = MESH.nv, tris = {}, uv = {}}
for t = 1, MESH.nt do
  CLOTH.tris[t], CLOTH.uv[t] = {MESH:triangle(t)}, {}
  for p, i in ipairs(CLOTH.tris[t]) do CLOTH.uv[t][p] = {MESH:uv(i)} end
end

-- what check-system says of the 3 x 3 cloth assembled with the student's add_force or
-- add_blocks: the checks that fail and the first finding naming a kind (a line), or nil
local KINDS = {"transpose of the right block", "added at the wrong vertex", "summed twice", "a sign", "a term missing"}
local function engine_says(work, fn)
  local ok, r = pcall(cc.check_system, {mesh = MESH, provides = {"energy", "force", "df_dx", "external"},
    answer = function(x, v, _, want)
      local E, f, Kx = assemble(CLOTH, x, v, fn == "add_force" and work.add_force, fn == "add_blocks" and work.add_blocks)
      local ext = {}
      for i = 1, #f do ext[i] = 0 end
      return {energy = E, force = f, df_dx = want.df_dx and Kx, external = ext}
    end})
  if not ok or not r.failed then return nil end
  local failing, line = {}, nil
  for _, c in ipairs(r.checks) do if c.gates and not c.pass then failing[#failing + 1] = string.format("%s %.1e", c.name, c.max_rel) end end
  for _, k in ipairs(KINDS) do for _, c in ipairs(r.checks) do for _, l in ipairs(c.findings) do
    line = line or (l:find(k, 1, true) and l:gsub(", hinge %d+ %([%d ]+%)", ""))
  end end end
  return string.format("check-system on a 3 x 3 cloth assembled with your %s: FAILS %s%s", fn, table.concat(failing, ", "),
                       line and "\n          " .. line or "")
end

local function same(a, b, c, tol)   -- |a - c b| small against |b| (3-vectors or 3 x 3 blocks, flattened)
  local e, n = 0, 0
  for i = 1, #a do e, n = math.max(e, math.abs(a[i] - c * b[i])), math.max(n, math.abs(b[i])) end
  return n > 0 and e <= (tol or 1e-12) * n
end

-- (1): where each of the triangle's vertex forces landed
local function check_force(f, work, part)
  math.randomseed(5051)
  local fe, f0 = {}, {}
  for I = 1, 9 do fe[I] = rnd() end
  for r = 1, 3 * NV do f0[r] = rnd() end   -- other triangles' forces, already there
  local got = f(copy(f0), copy(TRI), copy(fe))
  if got == nil then return false, {grade.todo_message(part)} end
  if type(got) ~= "table" or #got ~= 3 * NV then error("add_force must return f, " .. 3 * NV .. " numbers", 0) end
  local want = copy(f0)
  for p, i in ipairs(TRI) do for s = 1, 3 do want[3 * i - 3 + s] = want[3 * i - 3 + s] + fe[3 * p - 3 + s] end end
  local ok, lines = grade.compare(got, want, "f", part, 1e-12, {nv = NV})
  if ok then return true end
  if grade.is_layout(lines) then return false, lines end
  local function at(t, i) return {t[3 * i - 2], t[3 * i - 1], t[3 * i]} end
  local function added(i) local g, o = at(got, i), at(f0, i) return {g[1] - o[1], g[2] - o[2], g[3] - o[3]} end
  local kind
  for p, i in ipairs(TRI) do
    local fp = at(fe, p)
    if not kind and same(at(got, i), fp, 1) and not same(added(i), fp, 1) then
      kind = string.format("overwritten: f at vertex %d holds the triangle's force alone; what the other triangles had put " ..
                           "there is gone: add to f, do not set it", i)
    end
    for w = 1, NV do
      for _, c in ipairs{{1, ""}, {-1, "sign"}, {2, "doubled"}} do
        if not kind and same(added(w), fp, c[1]) and (w ~= i or c[1] ~= 1) then
          if w ~= i then
            kind = string.format("wrong-vertex: the force of the triangle's vertex %d belongs at the cloth's vertex %d (tri[%d]) " ..
                                 "and was added at vertex %d%s", p, i, p, w, w == p and ", its number in the triangle" or "")
          else
            kind = string.format("%s: at vertex %d the triangle's force was added %s", c[2], i, c[1] < 0 and "with its sign flipped" or "twice")
          end
        end
      end
    end
  end
  lines = kind and {kind} or lines
  local says = engine_says(work, "add_force")
  if says then lines[#lines + 1] = says end
  return false, lines
end

-- (2): where each of the triangle's 3 x 3 blocks landed
local function check_blocks(f, work, part)
  math.randomseed(5052)
  local blocks, K0 = {}, {}
  for p = 1, 3 do blocks[p] = {} for q = p, 3 do
    blocks[p][q] = {}
    for s = 1, 3 do blocks[p][q][s] = {} for u = 1, 3 do blocks[p][q][s][u] = rnd() end end
    if p == q then for s = 1, 3 do for u = 1, s - 1 do blocks[p][q][s][u] = blocks[p][q][u][s] end end end   -- symmetric
  end end
  for r = 1, 3 * NV do K0[r] = {} for c = 1, 3 * NV do K0[r][c] = rnd() end end   -- other triangles' blocks
  local got = f(copy(K0), copy(TRI), copy(blocks))
  if got == nil then return false, {grade.todo_message(part)} end
  if type(got) ~= "table" or #got ~= 3 * NV or type(got[1]) ~= "table" or #got[1] ~= 3 * NV then
    error("add_blocks must return K, " .. 3 * NV .. " rows of " .. 3 * NV .. " numbers", 0)
  end
  local function right(p, q)   -- the triangle's block (p, q), flattened row by row
    local B = {}
    for s = 1, 3 do for u = 1, 3 do B[#B + 1] = p <= q and blocks[p][q][s][u] or blocks[q][p][u][s] end end
    return B
  end
  local function stored(p, q) local B = {} for s = 1, 3 do for u = 1, 3 do B[#B + 1] = blocks[math.min(p, q)][math.max(p, q)][s][u] end end return B end
  local function block(t, i, j, minus)   -- the cloth's block (i, j) of t, less minus's
    local B = {}
    for s = 1, 3 do for u = 1, 3 do B[#B + 1] = t[3 * i - 3 + s][3 * j - 3 + u] - (minus and minus[3 * i - 3 + s][3 * j - 3 + u] or 0) end end
    return B
  end
  local gflat, wflat, want = {}, {}, copy(K0)
  for p, i in ipairs(TRI) do for q, j in ipairs(TRI) do
    local B = right(p, q)
    for s = 1, 3 do for u = 1, 3 do want[3 * i - 3 + s][3 * j - 3 + u] = want[3 * i - 3 + s][3 * j - 3 + u] + B[3 * s - 3 + u] end end
  end end
  for r = 1, 3 * NV do for c = 1, 3 * NV do gflat[#gflat + 1], wflat[#wflat + 1] = got[r][c], want[r][c] end end
  local ok, lines = grade.compare(gflat, wflat, "K", part, 1e-12, {nv = NV, matrix = true})
  if ok then return true end
  if grade.is_layout(lines) then return false, lines end
  local kind
  for p, i in ipairs(TRI) do for q, j in ipairs(TRI) do
    local R, D, where = right(p, q), block(got, i, j, K0), string.format("(%d, %d) (rows of vertex %d, columns of vertex %d)", i, j, i, j)
    if kind or same(D, R, 1) then goto next end
    if same(block(got, i, j), R, 1) then
      kind = "overwritten: block " .. where .. " holds the triangle's block alone; what the other triangles had put there is gone: add to K, do not set it"
    elseif p > q and same(D, stored(p, q), 1) then
      kind = string.format("transposed: block %s is the stored block (%d, %d) as it is; it stands for the triangle's block (%d, %d), " ..
                           "its transpose", where, q, p, p, q)
    elseif p > q and same(D, R, 0, 0) then
      kind = string.format("missing: nothing was added at block %s: the triangle's block (%d, %d), below the diagonal, is not stored " ..
                           "but is there all the same, the transpose of (%d, %d)", where, p, q, q, p)
    elseif same(D, R, 2) then
      kind = string.format("doubled: block %s was added twice%s", where, p == q and " (a diagonal block, stored once: it is " ..
                           "its own transpose and is added once)" or "")
    elseif same(D, R, -1) then
      kind = "sign: block " .. where .. " was added with its sign flipped"
    else
      for a = 1, NV do for b = 1, NV do
        if not kind and (a ~= i or b ~= j) and (same(block(got, a, b, K0), R, 1) or same(block(got, a, b, K0), stored(p, q), 1)) then
          kind = string.format("wrong-vertex: the triangle's block (%d, %d) belongs at block (%d, %d) of the cloth (tri[%d], tri[%d]) " ..
                               "and was added at block (%d, %d)%s", p, q, i, j, p, q, a, b,
                               (a == p and b == q) and ", its numbers in the triangle" or "")
        end
      end end
    end
    ::next::
  end end
  lines = kind and {kind} or lines
  local says = engine_says(work, "add_blocks")
  if says then lines[#lines + 1] = says end
  return false, lines
end

-- (3): A and b of a perturbed, moving 3 x 3 cloth against the reference's
local NOTE = "(f, df/dx and df/dv come from M.assemble, which calls your add_force and add_blocks, parts (1) and (2))"
local function check_system(f, _, part)
  math.randomseed(5053)
  local n, x, v, m = 3 * CLOTH.n, MESH:positions(), {}, {}
  for r = 1, n do x[r], v[r] = x[r] + 0.05 * rnd(), rnd() end
  for i = 1, CLOTH.n do m[i] = 0.01 + 0.01 * math.random() end
  local A, b = f(copy(CLOTH), copy(x), copy(v), copy(m), H)
  if A == nil then return false, {grade.todo_message(part)} end
  if type(A) ~= "table" or #A ~= n or type(A[1]) ~= "table" or #A[1] ~= n or type(b) ~= "table" or #b ~= n then
    error("system must return A (" .. n .. " rows of " .. n .. " numbers) and b (" .. n .. " numbers)", 0)
  end
  local _, fr, Kx, Kv = assemble(CLOTH, x, v)
  -- A with coefficients (cv, cx) of df/dv and df/dx; b with (cf, ck) of f and of df/dx v
  local function A_of(cv, cx) local t = {} for r = 1, n do for c = 1, n do
    t[#t + 1] = (r == c and m[(r - 1) // 3 + 1] or 0) + cv * Kv[r][c] + cx * Kx[r][c] end end return t end
  local function b_of(cf, ck) local t = {} for r = 1, n do
    local Kv_ = 0 for c = 1, n do Kv_ = Kv_ + Kx[r][c] * v[c] end t[r] = cf * fr[r] + ck * Kv_ end return t end
  local gA = {}
  for r = 1, n do for c = 1, n do gA[#gA + 1] = A[r][c] end end
  local okA, linesA = grade.classify(gA, A_of(-H, -H * H), "A", part, 1e-12, {
    {A_of(-H, H * H), "sign: A = M - h df/dv + h^2 df/dx: backward Euler subtracts h^2 df/dx (M dv = h f(x1), f(x1) ~ f + df/dx h (v + dv))"},
    {A_of(H, -H * H), "sign: A = M + h df/dv - h^2 df/dx: the damping's h df/dv is subtracted too (f(v1) ~ f + df/dv dv)"},
    {A_of(-H, -H), "h-power: df/dx with h in A: it enters through x1 - x0 = h (v + dv), times the h of M dv = h f: h^2"},
  }, NOTE, {nv = CLOTH.n, matrix = true})
  if not okA then return false, linesA end
  return grade.classify(b, b_of(H, H * H), "b", part, 1e-12, {
    {b_of(H, 0), "rhs: b = h f only: the positions also move by h v during the step, which adds h df/dx v to the force"},
    {b_of(H, -H * H), "sign: b = h (f - h df/dx v): the force at x + h v is f + h df/dx v"},
  }, NOTE, {nv = CLOTH.n})
end

return grade.run{lesson = "505_assembled_system", dir = arg[1], hint = arg[2], parts = {
  {todo = 1, name = "scatter-add of the force", fn = "add_force", kind = "check", check = check_force,
   hints = {"The triangle's vertex p is the cloth's vertex tri[p]: its force goes to that vertex's three entries of f.",
            "The cloth's vertex i has entries 3i - 2, 3i - 1, 3i of f; the triangle's vertex p has entries 3p - 2, 3p - 1, 3p of fe.",
            "Other triangles have already put forces at the same vertices. What must happen to what is there?"}},
  {todo = 2, name = "scatter-add of df/dx blocks", fn = "add_blocks", kind = "check", check = check_blocks,
   hints = {"Block (p, q) couples the triangle's vertices p and q: the rows of the cloth's vertex tri[p], the columns of tri[q].",
            "Only p <= q is stored. The matrix is symmetric, so its block (q, p) is the transpose of block (p, q): " ..
            "entry (s, u) of block (q, p) is entry (u, s) of block (p, q).",
            "Count the blocks of a 3-vertex element: 9. How many of them are stored, and which of the stored ones must not be added twice?"}},
  {todo = 3, name = "the system A, b (15)-(16)", fn = "system", kind = "check", check = check_system,
   hints = {"Backward Euler linearised: M dv = h (f + df/dx h (v + dv) + df/dv dv); gather the dv terms on the left.",
            "(M - h df/dv - h^2 df/dx) dv = h (f + h df/dx v), with f, df/dx, df/dv from M.assemble(cloth, x, v); M is diagonal.",
            "Count the powers of h in each term of A and of b again: which term of b carries one more h than f?"}},
}}
