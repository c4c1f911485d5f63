// Package memdir is the memory store: the only code that writes memory
// folders.
//
// # Layout
//
// A memory folder is Claude Code's own per-project folder,
// <home>/projects/<sanitized project root>/memory/:
//
//	MEMORY.md        the index: one line per memory, loaded into every session
//	<slug>.md        one memory per file: YAML frontmatter, then a markdown body
//	.forgotten/      forgotten memories, renamed <file>.<UTC stamp> so no scan reads them
//	.memdir.lock     the cross-process lock; its content names the holder
//	.memdir-batches/ the journals of multi-file changes (Apply), for crash
//	                 recovery and Undo; nothing in it ends in .md
//	.consolidate-lock Claude Code's consolidation lock: the holder's PID; its
//	                 mtime is when the folder was last consolidated
//	.memdir-cache/   derived data (the recall snapshot, cached embeddings),
//	                 written through WriteCache; safe to delete
//	.memdir-usage.json  the evidence of use (package usage): kept, written only
//	                 through UpdateSide; a corrupt one is kept aside as
//	                 .memdir-usage.json.corrupt-<UTC stamp>
//
// The store knows nothing of ranking: package snapshot derives the recall
// snapshot from the files, and a workspace gives the store its name list
// (Options.Names) so a save by name does not read every file.
// # Memory files
//
// Frontmatter carries name, description and type (user, feedback, project or
// reference), at top level or under Claude Code 2.1's metadata: block, plus
// the fields memdir owns: scope, created, updated, source, trust, refs,
// superseded_by, pinned and stale (why 'memdir verify' found the memory may
// no longer hold). Fields memdir does not know survive a rewrite.
//
// # The index and its caps
//
// An index line is "- [Title](file.md) — hook", at most 150 characters.
// Claude Code loads at most 200 lines, then at most 25,000 characters (UTF-16
// code units), cut at a line boundary, and says so in a warning line; Load
// reproduces that. Saves write the memory file first and its index line
// second, and warn once the index passes 80% of either cap.
//
// MEMORY.md is the index an agent loads, not memdir's catalogue (recall
// reads the files through its own snapshot), so it holds only what an agent
// can load: the most useful memories — pinned, then user and feedback, then
// the rest, newest first within each — up to IndexBudgetLines lines and
// IndexBudgetChars characters, 70% of the caps, as Claude Code's own
// backfill fills it. Past that budget a save replaces the least useful
// line in place, or leaves MEMORY.md alone when the new memory is less
// useful than every line; either way it reads and writes a bounded file
// and at most a budget's worth of memory files. A save never rewrites or
// fails on an index past the caps (an older memdir wrote one line per
// memory): it says to run RebuildIndex, which streams an index of any
// size, keeps its lines written by hand and writes the capped one. The
// memories without a line stay files that recall, list and the agent find.
//
// # Safety
//
// Every write is atomic (package atomicfile). Read-modify-write runs under
// one flock per folder with a timeout; a *LockedError names the holder.
// Claude Code writes these files without that lock, so before replacing a
// file the store re-reads it and re-applies its change when it moved.
// Secrets are redacted (package redact) before anything reaches disk.
//
// A change of several files (Apply, for consolidation) lands whole or not
// at all: the files' contents before and after go to a synced journal in
// BatchDir, whose manifest, written last, commits the batch; a batch a
// crash cut short is finished by the next Open or Lock, or dropped when it
// was not committed, and Undo puts a finished one back byte for byte.
package memdir
