-- Lesson 504 exercise: the stiffness of one condition and its Hessian modes, and the smallest
-- eigenvalue that says whether a matrix is definite.
--
-- Fill in the two functions below, then grade them:
--   clothcheck lesson 504 --check            (or --check DIR if you copied it elsewhere)
--   clothcheck lesson 504 --check --hint 2   (a more specific hint for the first failing part)

local M = {}

-- TODO (1): the stiffness K = d2E/dx2 of one condition component with energy E = k/2 C^2,
-- as n*n numbers row by row (entry (i, j) at n (i - 1) + j), given C, its gradient g (n
-- numbers) and Hessian H (rows H[i][j]). mode:
--   "full"          the exact second derivative of E;
--   "gauss-newton"  without the C d2C part;
--   "clamp"         without it where the element pushes outwards (its force -k C dC/dx
--                   points along +dC/dx: C < 0), with it elsewhere.
function M.stiffness(C, g, H, k, mode)
  -- your code here
  return nil
end

-- TODO (2): the smallest eigenvalue of the symmetric matrix S (rows S[i][j], n x n). Any
-- method that is right to 1e-9 relative will do; cyclic Jacobi rotations are short to write:
-- zero each off-diagonal entry in turn with a rotation until they are all negligible, and
-- read the eigenvalues off the diagonal.
function M.smallest_eigenvalue(S)
  -- your code here
  return nil
end

return M
