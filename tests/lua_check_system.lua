-- cc.check_system: check-system's checks on a simulator written in Lua (lua/lsystem.c).
local cc = require "clothcheck"

-- springs on the edges of a 3 x 3 grid: E = k/2 (|d| - L)^2, f, df/dx by the spring condition
local mesh = cc.grid(3, 3, 1, 1)
local N, spring, K = 3 * mesh.nv, cc.condition("spring", "linear"), 10
local springs, seen = {}, {}
for t = 1, mesh.nt do
  local v = {mesh:triangle(t)}
  for e = 1, 3 do
    local a, b = math.min(v[e], v[e % 3 + 1]), math.max(v[e], v[e % 3 + 1])
    if not seen[a .. "-" .. b] then
      seen[a .. "-" .. b] = true
      local pa, pb = {mesh:position(a)}, {mesh:position(b)}
      springs[#springs + 1] = {a, b, math.sqrt((pa[1] - pb[1]) ^ 2 + (pa[2] - pb[2]) ^ 2 + (pa[3] - pb[3]) ^ 2)}
    end
  end
end

-- the answer, with df/dx as rows (dense) or as triplets; with `wrong`, the block (a, b) of the
-- first spring goes to row vertex `wrong` instead of a
local function answer(x, want, form, wrong)
  local E, f, I, J, V = 0, {}, {}, {}, {}
  for i = 1, N do f[i] = 0 end
  for s, sp in ipairs(springs) do
    local xe = {}
    for p, i in ipairs{sp[1], sp[2]} do for c = 1, 3 do xe[3 * p - 3 + c] = x[3 * i - 3 + c] end end
    local r = spring:eval(xe, {rest = sp[3]})
    local C, g, Hs = r.value[1], r.gradient[1], r.hessian[1]
    E = E + K / 2 * C * C
    for p, i in ipairs{sp[1], sp[2]} do
      for c = 1, 3 do f[3 * i - 3 + c] = f[3 * i - 3 + c] - K * C * g[3 * p - 3 + c] end
      for q, j in ipairs{sp[1], sp[2]} do
        local row = (s == 1 and wrong and p == 1 and q == 2) and wrong or i
        for c = 1, 3 do for u = 1, 3 do
          local a, b = 3 * p - 3 + c, 3 * q - 3 + u
          I[#I + 1], J[#J + 1], V[#V + 1] = 3 * row - 3 + c, 3 * j - 3 + u, -K * (g[a] * g[b] + C * Hs[a][b])
        end end
      end
    end
  end
  local out = {energy = E, force = f, external = {}}
  for i = 1, N do out.external[i] = 0 end
  if want.df_dx and form == "rows" then
    local M = {}
    for i = 1, N do M[i] = {} for j = 1, N do M[i][j] = 0 end end
    for k = 1, #I do M[I[k]][J[k]] = M[I[k]][J[k]] + V[k] end
    out.df_dx = M
  elseif want.df_dx then
    out.df_dx = {i = I, j = J, v = V}
  end
  return out
end

local PROVIDES = {"energy", "force", "df_dx", "external"}
local function run(form, wrong, opts)
  local spec = {mesh = mesh, provides = PROVIDES, answer = function(x, _, _, want) return answer(x, want, form, wrong) end}
  for k, v in pairs(opts or {}) do spec[k] = v end
  return cc.check_system(spec)
end

-- right: every check that applies holds, in both forms; the report's shape
for _, form in ipairs{"rows", "triplets"} do
  local r = run(form)
  assert(not r.failed, form)
  assert(#r.checks == 16 and r.checks["df/dx"] == r.checks[2] and r.checks[1].name == "force = -grad E")
  assert(r.checks.finite.pass and r.checks.finite.tests > 0)
  assert(r.checks["df/dx"].pass and r.checks["df/dx"].tests > 0 and r.checks["df/dx"].max_rel < 1e-6)
  assert(r.checks.symmetry.pass and r.checks.translation.pass and r.checks.rotation.pass)
  assert(not r.checks.mass.applies and not r.checks["df/dv"].applies, "nothing given, nothing checked")
  assert(#r.states == 6 and r.states[1] == "rest" and r.evaluations > 20 and r.total_mass == nil)
  assert(r.uv_from_xy == 0 and r.uv_mismatch == 0)   -- a grid laid out flat by its (u, v)
end
print("cc.check_system: a right spring cloth holds every check, as rows and as triplets")

-- a block at the wrong row vertex: named, numbered from 1 as the mesh functions are
local first = springs[1]
local r = run("triplets", 9)
assert(r.failed and not r.checks["df/dx"].pass and not r.checks.translation.pass)
local text = table.concat(r.checks["df/dx"].findings, "\n")
assert(text:find("row vertex 9, column vertex " .. first[2] .. "%): it holds a block that belongs at row vertex " .. first[1]),
       text)
assert(text:find("elements holding both: triangle 1 (1 2 5)", 1, true), text)
print("cc.check_system: " .. r.checks["df/dx"].findings[1])

-- a block two triangles share, one triangle's part of it not transposed (stretch and shear on a
-- 4 x 4 cloth, triangle 9 holding no edge of the cloth's border; shear's blocks are not
-- symmetric): the block as a whole is not the transpose of the right one, but it differs from
-- it by X^T - X, antisymmetric
do
  local cloth, terms = cc.grid(4, 4, 1, 1), {{cc.condition("stretch", "bw98"), 50}, {cc.condition("shear", "bw98"), 5}}
  local n, BAD = 3 * cloth.nv, 9
  local function tri_answer(x, want)
    local E, f, Kx = 0, {}, {}
    for i = 1, n do f[i], Kx[i] = 0, {} for j = 1, n do Kx[i][j] = 0 end end
    for t = 1, cloth.nt do
      local v, xe, uv = {cloth:triangle(t)}, {}, {}
      for p, i in ipairs(v) do uv[p] = {cloth:uv(i)} for c = 1, 3 do xe[3 * p - 3 + c] = x[3 * i - 3 + c] end end
      for _, term in ipairs(terms) do
        local r, k = term[1]:eval(xe, {uv = uv}), term[2]
        for comp = 1, #r.value do
          local C, g, Hc = r.value[comp], r.gradient[comp], r.hessian[comp]
          E = E + k / 2 * C * C
          for p, i in ipairs(v) do
            for c = 1, 3 do f[3 * i - 3 + c] = f[3 * i - 3 + c] - k * C * g[3 * p - 3 + c] end
            for q, j in ipairs(v) do for c = 1, 3 do for u = 1, 3 do
              local a, b = 3 * p - 3 + c, 3 * q - 3 + u
              if t == BAD and p > q then a, b = 3 * q - 3 + c, 3 * p - 3 + u end   -- block (q, p) itself
              Kx[3 * i - 3 + c][3 * j - 3 + u] = Kx[3 * i - 3 + c][3 * j - 3 + u] - k * (g[a] * g[b] + C * Hc[a][b])
            end end end
          end
        end
      end
    end
    local ext = {}
    for i = 1, n do ext[i] = 0 end
    return {energy = E, force = f, df_dx = want.df_dx and Kx or nil, external = ext}
  end
  local rs = cc.check_system{mesh = cloth, provides = PROVIDES, answer = function(x, _, _, want) return tri_answer(x, want) end}
  local found = table.concat(rs.checks["df/dx"].findings, "\n")
  assert(rs.failed and found:find("transpose of the right block's part from an element: it differs from the right "
                                  .. "block by X^T - X", 1, true), found)
  assert(not found:find("wrong vertex", 1, true), found)
  print("cc.check_system: " .. found:match("[^\n]*X^T %- X[^\n]*"))
end

-- the same seed gives the same checks; another seed other directions
local a, b = run("rows", nil, {seed = 7, directions = 2, h = 0.02}), run("rows", nil, {seed = 7, directions = 2, h = 0.02})
assert(a.evaluations == b.evaluations and a.checks["df/dx"].max_rel == b.checks["df/dx"].max_rel)

-- what it asks for is only what the program provides
local asked = {}
cc.check_system{mesh = mesh, provides = {"force", "df_dx"}, answer = function(x, _, _, want)
  for k in pairs(want) do asked[k] = true end
  return answer(x, want, "rows")
end}
assert(asked.force and asked.df_dx and not asked.energy and not asked.external and not asked.system)

-- bad input: one error each
local function fails(spec, words)
  local ok, err = pcall(cc.check_system, spec)
  assert(not ok and tostring(err):find(words, 1, true), tostring(err))
end
local good = function(x, _, _, want) return answer(x, want, "rows") end
fails({mesh = mesh, provides = PROVIDES, answer = good, frob = 1}, "unknown parameter 'frob'")
fails({mesh = mesh, provides = {"force", "mass"}, answer = good}, "provides: each must be one of")
fails({mesh = mesh, provides = {}, answer = good}, "provides names nothing")
fails({mesh = mesh, provides = PROVIDES}, "answer must be a function")
fails({provides = PROVIDES, answer = good}, "mesh must be a mesh")
fails({mesh = 5, provides = PROVIDES, answer = good}, "bad argument #1 to 'clothcheck.check_system' (mesh must be a mesh")
fails({mesh = mesh, provides = PROVIDES, answer = good, h = 0}, "h must be in (0, 1]")
fails({mesh = mesh, provides = PROVIDES, answer = good, directions = 0}, "directions must be 1..100")
fails({mesh = mesh, provides = PROVIDES, answer = function() error("my simulator broke") end}, "my simulator broke")
fails({mesh = mesh, provides = PROVIDES, answer = function() return 5 end}, "f must return a table")
fails({mesh = mesh, provides = {"force"}, answer = function() return {force = {1, 2}} end},
      "answer: force must be a list of 27 numbers")
fails({mesh = mesh, provides = {"energy"}, answer = function() return {energy = "none"} end}, "energy must be a number")
fails({mesh = mesh, provides = {"force", "df_dx"}, answer = function(x, _, _, want)
  local o = answer(x, want, "triplets")
  if o.df_dx then o.df_dx.i[3] = 28 end
  return o
end}, "df_dx entry 3: (28, 3) is outside the 27 x 27 matrix")

fails({mesh = mesh, provides = {"force", "df_dx"}, answer = function(x, _, _, want)
  local o = answer(x, want, "triplets")
  if o.df_dx then o.df_dx.v[#o.df_dx.v] = nil end
  return o
end}, string.format("has %d i and %d v", 36 * #springs, 36 * #springs - 1))
print("cc.check_system: bad input stops it with one error")

-- numbers that are not finite are findings, never a pass and never another kind: the check
-- "finite" names the state, the part and the entry (numbered from 1), and the other checks leave
-- the state out
do
  local function nonfinite(change)
    local r = cc.check_system{mesh = mesh, provides = PROVIDES, answer = function(x, _, _, want)
      local o = answer(x, want, "rows")
      change(o)
      return o
    end}
    assert(r.failed and not r.checks.finite.pass)
    for _, c in ipairs(r.checks) do
      if c.name ~= "finite" then assert(c.pass or not c.applies or c.tests == 0, c.name .. " fails too") end
    end
    return r.checks.finite.findings[1]
  end
  local f = nonfinite(function(o) if o.energy then o.energy = 0 / 0 end end)
  assert(f == "[rest] the energy is NaN", f)
  f = nonfinite(function(o) if o.force then o.force[5] = 0 / 0 end end)
  assert(f == "[rest] the force entry 5 (vertex 2, axis y) is NaN", f)
  f = nonfinite(function(o) if o.df_dx then o.df_dx[2][2] = math.huge end end)
  assert(f == "[rest] df/dx entry (2, 2) (row vertex 1 y, column vertex 1 y) is infinite", f)
  print("cc.check_system: " .. f)
end
