// Package recall chooses the few memories worth injecting for a prompt. It
// is pure: no I/O and no clock (now is a parameter); the caller reads the
// memories and the file system.
//
// # Scoring
//
// Text is cut into terms by Tokenize: lower-cased runs of letters and
// digits, code identifiers also split into their words (parseHTTPConfig →
// parse, http, config, and the whole parsehttpconfig), paths split at
// separators, English stop words dropped, and the rest stemmed (Snowball
// English: "deploying" and "deploys" are both "deploy").
//
// A memory has three fields: name, description and body. Ranking is BM25F
// (Robertson, Zaragoza and Taylor, 2004): the term frequencies of the
// fields are weighted and length-normalised field by field, summed into one
// pseudo-frequency, and that goes through BM25's saturation once:
//
//	B(f,d)  = 1 - b + b·len(f,d)/avglen(f)
//	tf'(t,d) = Σ_f  w(f) · tf(t,f,d) / B(f,d)
//	idf(t)  = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))
//	score(q,d) = Σ_{t in q} qtf(t) · idf(t) · tf'(t,d)·(k1+1) / (tf'(t,d) + k1)
//
// with k1 = 1.2, b = 0.75 in every field and weights name 3, description 2,
// body 1: the name and the one-line description are written to be found.
// The sum runs over query terms in the order each first appears, so that
// near-ties break the same way on every machine.
//
// Worked example. Two memories, N = 2:
//
//	d0  name "Deploy freeze"    description "No deploys on Fridays"  body "Ask the release manager."
//	d1  name "Table tests"      description "Write table-driven tests" body "Use t.Run for each case."
//
// The query "can we deploy on friday?" analyses to [deploy, friday]. Both
// terms occur only in d0 (df = 1), so idf = ln(1 + 1.5/1.5) = ln 2 = 0.693.
// In d0, "deploy" is once in the name (2 terms; names average 2, so B = 1)
// and once in the description ([no, deploy, friday]: "no" is kept, 3 terms
// against an average of 3.5, so B = 0.25 + 0.75·3/3.5 = 0.893): tf' =
// 3·1/1 + 2·1/0.893 = 5.240, and its part of the score is
// 0.693·5.240·2.2/(5.240+1.2) = 1.241. "friday" is only in the description:
// tf' = 2/0.893 = 2.240, part 0.693·2.240·2.2/3.440 = 0.993. d0 scores
// 2.234; d1 scores 0 and is not a candidate at all.
//
// # Relevance and abstention
//
// Scores are not comparable across stores, so the threshold is on
// coverage: the share of the query's information a memory matches,
// Σ idf(t) over the query terms it contains divided by Σ idf(t) over the
// query's 8 most informative terms (a term no memory has counts as df = 1).
// d0 above covers 1.0. Below the threshold (default 0.4) a memory is never
// injected, however it ranks; nor is one that matches a single word of a
// prompt of three or more terms ("what's a good name for a cat?" must not
// bring back a memory because it says "name"). When no memory passes,
// recall returns nothing.
//
// # Several folders
//
// A project's private memories and its team memories are two folders, two
// indexes. Merged ranks them as one: every part is scored with pooled
// statistics (N and each term's df summed over the folders), the idf one
// index over all of them would give, so neither folder wins by its size;
// each keeps its own average field lengths. Selection then runs once over
// the merged ranking, under one policy.
//
// # Selection
//
// From the ranked candidates Select keeps at most k (default 5) whose
// rendering fits a token budget (default 1,500), never returns a memory
// marked superseded_by, and, for tools the agent is already using, drops
// reference and usage memories about them while keeping warnings about
// them. Tokens are counted as ceil(bytes/3): English prose runs about 4
// bytes per token and code about 3, so the count errs high and the budget
// is never exceeded in real tokens.
package recall
