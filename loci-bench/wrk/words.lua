-- A made-up vocabulary of 500 words: w0 ... w499, drawn with a skew (square of a uniform draw).
function words(n)
  local out = {}
  for i = 1, n do out[i] = "w" .. math.floor(500 * math.random() ^ 2) end
  return table.concat(out, " ")
end
