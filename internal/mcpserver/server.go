// Package mcpserver serves memdir's memory over the Model Context
// Protocol: tools to save, recall, read, list, update, forget and mark
// memories, to search transcripts and to write a task diary, and
// resources for MEMORY.md and each memory file. Its handlers call the same
// store, recall and search functions as the CLI.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/redact"
	"github.com/memdir/memdir/internal/search"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/workspace"
)

// projects opens the workspace of a project: "" is the server's own
// project (its working directory, or --project), anything else an absolute
// path, under the same rules as the CLI's --project.
type projects struct{ env workspace.Env }

func (p projects) layout(project string) (workspace.Env, paths.Layout, error) {
	env := p.env
	if project != "" {
		if !filepath.IsAbs(project) {
			return env, paths.Layout{}, fmt.Errorf("project %q is not an absolute path", project)
		}
		env.ProjectFlag = project
	}
	l, err := env.Layout()
	return env, l, err
}

// Store opens a project's store and returns its layout (also when the
// folder does not exist yet: memdir.ErrNotFound).
func (p projects) Store(project string, create bool) (*memdir.Store, paths.Layout, error) {
	ws, l, err := p.Open(project, create)
	if err != nil {
		return nil, l, err
	}
	return ws.Store, l, nil
}

// Open opens a project's workspace.
func (p projects) Open(project string, create bool) (*workspace.Workspace, paths.Layout, error) {
	env, l, err := p.layout(project)
	if err != nil {
		return nil, l, err
	}
	ws, err := workspace.OpenLayout(env, l, create)
	return ws, l, err
}

// Scoped opens the folder of scope in a project: "" or private is its
// own (Open), team its team folder (workspace.OpenTeam; with create
// unset, workspace.ErrNoTeam when the project has none).
func (p projects) Scoped(project, scope string, create bool) (*workspace.Workspace, paths.Layout, error) {
	if err := workspace.CheckScope(scope, false); err != nil {
		return nil, paths.Layout{}, err
	}
	if scope != memdir.ScopeTeam {
		return p.Open(project, create)
	}
	env, l, err := p.layout(project)
	if err != nil {
		return nil, l, err
	}
	ws, err := workspace.OpenTeam(env, l, create)
	return ws, l, err
}

// named opens the folder a tool's name argument is in: scope's, the team
// folder for a name written team/<file>, or the user's global folder for
// global/<file>. It returns the name without
// that prefix and the scope settled on.
func (p projects) named(project, scope, name string) (*workspace.Workspace, string, string, error) {
	if rest, ok := strings.CutPrefix(strings.TrimSpace(name), workspace.GlobalPrefix); ok && rest != "" && scope == "" {
		// global/<file>, as memory_recall names the user's global memories.
		env, l, err := p.layout(project)
		if err != nil {
			return nil, scope, rest, err
		}
		g, err := workspace.OpenGlobalReader(env, l)
		if err == nil && g == nil {
			err = fmt.Errorf("%w: there are no global memories yet", memdir.ErrNotFound)
		}
		return g, scope, rest, err
	}
	scope, name = workspace.SplitScope(scope, name)
	ws, l, err := p.Scoped(project, scope, false)
	if err != nil && scope == "" && errors.Is(err, memdir.ErrNotFound) {
		env, _, _ := p.layout(project)
		err = toolHint(workspace.NotPrivate(env, l, "", name, err))
	}
	return ws, scope, name, err
}

// notPrivate is a name not found among the private memories, when the
// team folder holds it: an error that says to give scope team.
func (p projects) notPrivate(project, scope, name string, err error) error {
	if scope != "" || !errors.Is(err, memdir.ErrNotFound) {
		return err
	}
	env, l, lerr := p.layout(project)
	if lerr != nil {
		return err
	}
	return toolHint(workspace.NotPrivate(env, l, "", name, err))
}

// toolHint adds a team-memory error's next step, as a tool caller reads
// it (a hint is not in the error's text).
func toolHint(err error) error {
	var se *memdir.SecretError
	var te *workspace.TeamMemoryError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("%w. Rewrite the memory without it (say where the secret lives instead), or save it with scope \"private\"", err)
	case errors.As(err, &te) && !strings.Contains(err.Error(), ": call again with"):
		return fmt.Errorf("%w: call again with name %q or scope \"team\" (for memory_forget: that deletes it for every collaborator once committed)", err, workspace.TeamPrefix+te.File)
	case errors.Is(err, memdir.ErrTombstoned):
		// The store's text offers 'memdir save' to bring it back: that is
		// for a person, never for an agent's tool call.
		file, _, _ := strings.Cut(err.Error(), ": ")
		return fmt.Errorf("%s%s was %w: a person forgot it, so it is not saved again by a tool; a person can bring it back with 'memdir team resolve %s%s --keep'",
			workspace.TeamPrefix, file, memdir.ErrTombstoned, workspace.TeamPrefix, strings.TrimSuffix(file, ".md"))
	case errors.Is(err, workspace.ErrNoTeam):
		return fmt.Errorf("%w: the project keeps no team memories yet (memory_save with scope \"team\" starts them)", err)
	}
	return err
}

// Transcripts are where transcript_search looks.
func (p projects) Transcripts() sessions.Roots {
	t, err := p.env.Transcripts()
	if err != nil {
		return sessions.Roots{}
	}
	return t.Roots
}

// Server is the MCP server and what it keeps between calls: each
// project's recall snapshot, and the watcher that keeps it fresh. Close
// stops the watcher.
type Server struct {
	*mcp.Server
	lives *lives
}

// Close stops watching the memory folders and waits for the goroutines
// that did. The server must not be used after it.
func (s *Server) Close() error { return s.lives.close() }

// New builds the server over env's projects (env.ProjectFlag is the
// server's own project; a tool's project argument replaces it). It
// watches the folders of the projects it serves until Close.
func New(env workspace.Env, version string) *Server {
	p := projects{env: env}
	s := mcp.NewServer(&mcp.Implementation{Name: "memdir", Title: "memdir — long-term memory in markdown", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
	})
	h := &handlers{p: p, lives: newLives()}
	mcp.AddTool(s, &mcp.Tool{Name: "memory_save", Annotations: additive, Description: saveDescription}, h.save)
	if err := addHotTool(s, &mcp.Tool{Name: "memory_recall", Annotations: readOnly, Description: recallDescription}, h.recall); err != nil {
		panic(err) // the schemas of fixed Go types: a bug, as mcp.AddTool panics on one
	}
	mcp.AddTool(s, &mcp.Tool{Name: "memory_get", Annotations: readOnly, Description: "Read one memory in full (frontmatter fields and body), by its name or file. Call it when a recalled or listed memory looks relevant and you need all of it. A team memory is named team/<file> (as memory_list shows it), or give scope team."}, h.get)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_list", Annotations: readOnly, Description: listDescription}, h.list)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_update", Annotations: updating, Description: "Change an existing memory: its description, body or type. Fields you leave empty keep their value. Call it when a remembered fact changed or a correction refines an earlier one, instead of saving a duplicate. A team memory is named team/<file>, or give scope team: the change is shared with every collaborator once committed, and one holding a secret is refused."}, h.update)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_forget", Annotations: destructive, Description: "Remove a memory that is wrong or no longer true. It is moved aside (recoverable) unless purge is set. Call it when the user says to forget something, or a memory is contradicted and should not be updated. A team memory (named team/<file>, or with scope team) is deleted for every collaborator once committed, and leaves a tombstone: forget one only when the user asks for it."}, h.forget)
	mcp.AddTool(s, &mcp.Tool{Name: "memory_feedback", Annotations: additive, Description: feedbackDescription}, h.feedback)
	mcp.AddTool(s, &mcp.Tool{Name: "transcript_search", Annotations: readOnly, Description: "Search what was said in past agent sessions (the user's and the assistant's words, not tool output) for a literal string or a regular expression. Call it when the user refers to an earlier conversation, or memory does not hold the answer."}, h.searchTranscripts)
	addMaintenanceTools(s, h)
	mcp.AddTool(s, &mcp.Tool{Name: "diary_write", Annotations: additive, Description: diaryDescription}, h.diaryWrite)
	s.AddResource(&mcp.Resource{URI: "memdir://index", Name: "MEMORY.md", Title: "Memory index", MIMEType: "text/markdown",
		Description: "The project's MEMORY.md as an agent loads it: one line per memory, capped at 200 lines and 25,000 characters."}, h.index)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "memdir://memory/{file}", Name: "memory", Title: "A memory file", MIMEType: "text/markdown",
		Description: "One memory file of the project, frontmatter and body."}, h.memoryFile)
	s.AddReceivingMiddleware(recoverPanics)
	return &Server{Server: s, lives: h.lives}
}

// Tool annotations: hints for clients that ask before calling a tool that
// changes something. memdir's world is closed (the memory folder and the
// transcripts), so none is open-world.
var (
	closed   = new(bool)
	readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: closed}
	// additive: a save adds a memory or updates the one of that name.
	additive = &mcp.ToolAnnotations{DestructiveHint: closed, OpenWorldHint: closed}
	// updating replaces a memory's fields; the same call again changes nothing.
	updating = &mcp.ToolAnnotations{DestructiveHint: closed, IdempotentHint: true, OpenWorldHint: closed}
	// destructive: forget removes a memory from every later session.
	destructive = &mcp.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: closed}
)

func ptr[T any](v T) *T { return &v }

// recoverPanics is the server's one recovery middleware: a panic in any
// handler becomes that call's error (a tool call's error result), since
// the SDK does not recover them and one bad call would end a stdio server
// (and every session of an HTTP one).
func recoverPanics(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			r := recover()
			if r == nil {
				return
			}
			if ct, ok := req.(*mcp.CallToolRequest); ok {
				name := ""
				if ct.Params != nil {
					name = ct.Params.Name
				}
				res, err = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s failed: internal error: %v", name, r)}}}, nil
				return
			}
			what := method
			if rr, ok := req.(*mcp.ReadResourceRequest); ok && rr.Params != nil {
				what = "reading " + rr.Params.URI
			}
			res, err = nil, fmt.Errorf("%s failed: internal error: %v", what, r)
		}()
		return next(ctx, method, req)
	}
}

const instructions = `memdir keeps long-term memory for this project in markdown files: who the user is, how they want you to work (feedback), project decisions and deadlines, and where things live (reference). Recall before answering questions about past decisions or preferences; save when you learn something that will matter in a later session. Memories are point-in-time notes: verify files, functions and flags they name before acting; what you observe now wins. At the end of a non-trivial task, write its diary once with diary_write.`

const saveDescription = `Save a memory for later sessions. Call it when the user states a preference or corrects you (type feedback), tells you about themselves (user), shares a decision, deadline or context not visible in the code (project), or points to where something lives outside the repo (reference). Saving with the name of an existing memory updates it.

Write the rule or fact first; for feedback and project add a "**Why:**" line and a "**How to apply:**" line. Write dates as absolute dates (2026-11-20, not "next Thursday").

Never save: what the code, git history or CLAUDE.md/AGENTS.md already say (file lists, code structure, commit history), debugging steps, the state of the current task, or secrets (keys, tokens, passwords are redacted anyway).

Scope: private (the default) is this user's memory on this machine. Use scope "team" only for what every collaborator of the repository should know — a project convention, a decision, a shared reference (where the runbook or dashboard lives): it is written to the project's .memdir/team folder, committed with the code. Never team: personal preferences, anything about the user (type user is refused), anything secret (a memory holding a potential secret is refused, listing what was found).`

const recallDescription = `Find the memories that bear on a question or task, ranked offline, with their age and a caveat. Call it at the start of a task, or when the user asks what was decided, preferred or learned before. Returns nothing when no memory is relevant enough; that is an answer too.`

type handlers struct {
	p     projects
	lives *lives

	mu     sync.Mutex
	opened map[string]openedWorkspace // by project argument, for readers
}

// openedWorkspace is a workspace a reader opened, and when.
type openedWorkspace struct {
	ws *workspace.Workspace
	at time.Time
}

// reopenAfter is how long recall and list reuse a project's workspace:
// resolving the layout (settings, .git, links) costs more than the rest
// of a warm recall, and a change of settings is seen this much later.
const reopenAfter = time.Second

// openRead opens a project's workspace for a reader, reusing one opened
// within reopenAfter. Writers open theirs afresh.
func (h *handlers) openRead(project string) (*workspace.Workspace, error) {
	h.mu.Lock()
	o, ok := h.opened[project]
	h.mu.Unlock()
	if ok && time.Since(o.at) < reopenAfter {
		return o.ws, nil
	}
	ws, _, err := h.p.Open(project, false)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.opened == nil || len(h.opened) >= maxLive {
		h.opened = map[string]openedWorkspace{}
	}
	h.opened[project] = openedWorkspace{ws: ws, at: time.Now()}
	return ws, nil
}

// Common is the argument every tool takes.
type Common struct {
	Project string `json:"project,omitempty" jsonschema:"absolute path of the project whose memory to use; default: the server's working directory"`
}

func text(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// SaveIn is memory_save's input.
type SaveIn struct {
	Common
	Type        string   `json:"type" jsonschema:"user, feedback, project or reference"`
	Name        string   `json:"name" jsonschema:"a short title; the file name is its slug"`
	Description string   `json:"description" jsonschema:"one line saying what the memory is for; recall matches on it"`
	Body        string   `json:"body" jsonschema:"the memory in markdown"`
	Scope       string   `json:"scope,omitempty" jsonschema:"private (default) or team: the project's shared .memdir/team folder, only for project conventions and shared references, never personal preferences or secrets"`
	Refs        []string `json:"refs,omitempty" jsonschema:"files or symbols the memory names, checked later for staleness"`
}

// SaveOut is memory_save's result.
type SaveOut struct {
	// File is the memory's file, team/<file> for a team memory.
	File      string   `json:"file"`
	Scope     string   `json:"scope"`            // private or team: the folder written
	Author    string   `json:"author,omitempty"` // who added a team memory
	Path      string   `json:"path"`
	Created   bool     `json:"created"`
	Redacted  []string `json:"redacted,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
	IndexLine string   `json:"index_line"`
}

func (h *handlers) save(ctx context.Context, _ *mcp.CallToolRequest, in SaveIn) (*mcp.CallToolResult, SaveOut, error) {
	req := workspace.SaveRequest{Type: in.Type, Name: in.Name, Description: in.Description, Scope: in.Scope,
		Body: in.Body, Refs: in.Refs, Source: "mcp", Trust: memdir.TrustAgent, RequireDescription: true}
	if err := req.Check(); err != nil {
		return nil, SaveOut{}, toolHint(err) // before the folder is made
	}
	ws, _, err := h.p.Open(in.Project, true)
	if err != nil {
		return nil, SaveOut{}, err
	}
	res, err := ws.Save(ctx, req)
	if err != nil {
		return nil, SaveOut{}, toolHint(err)
	}
	scope := ws.SavedTo(res)
	verb := map[bool]string{true: "saved", false: "updated"}[res.Created]
	head := fmt.Sprintf("%s %s memory %s", verb, res.Memory.Type, res.File)
	if scope == memdir.ScopeTeam {
		by := map[bool]string{true: "by", false: "added by"}[res.Created]
		head = fmt.Sprintf("%s team %s memory %s%s (%s %s): commit %s to share it", verb, res.Memory.Type, workspace.TeamPrefix, res.File, by, res.Memory.Author, paths.TeamFolder)
	}
	out, msg := saveReport(res, scope, head)
	return text("%s", msg), out, nil
}

// saveReport is what a save or an update tells the client: the file, its
// index line, what was redacted and any warnings.
func saveReport(res memdir.SaveResult, scope, head string) (SaveOut, string) {
	out := SaveOut{File: res.File, Scope: scope, Path: res.Path, Created: res.Created, Warnings: res.Warnings, IndexLine: res.IndexLine}
	if scope == memdir.ScopeTeam {
		out.File, out.Author = workspace.TeamPrefix+res.File, res.Memory.Author
	}
	for _, r := range res.Redactions {
		out.Redacted = append(out.Redacted, fmt.Sprintf("%d %s", r.Count, r.Kind))
	}
	msg := head + "\n" + res.IndexLine
	if len(out.Redacted) > 0 {
		msg += "\nredacted before writing: " + strings.Join(out.Redacted, ", ")
	}
	for _, w := range res.Warnings {
		msg += "\nwarning: " + w
	}
	return out, msg
}

// RecallIn is memory_recall's input.
type RecallIn struct {
	Common
	Query  string `json:"query" jsonschema:"the question or task, in the user's words"`
	K      int    `json:"k,omitempty" jsonschema:"at most this many memories (default 5)"`
	Budget int    `json:"budget,omitempty" jsonschema:"token budget for the result (default 1500)"`
}

// RecallOut is memory_recall's result.
type RecallOut struct {
	Text string `json:"text"`
	// Files are the memories given, as Memories names them.
	Files    []string         `json:"files"`
	Memories []RecalledMemory `json:"memories"`
	Tokens   int              `json:"tokens"`
}

// RecalledMemory is one memory memory_recall gave: a team memory is named
// "team/<file>", with scope "team" and its author; a private one keeps
// its file name, scope "private".
type RecalledMemory struct {
	File   string `json:"file"`
	Scope  string `json:"scope"`
	Author string `json:"author,omitempty"`
}

func (h *handlers) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallIn) (*mcp.CallToolResult, RecallOut, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, RecallOut{}, errors.New("query is required")
	}
	p := recall.DefaultPolicy
	if in.K < 0 || in.Budget < 0 {
		return nil, RecallOut{}, errors.New("k and budget must not be negative")
	}
	if in.K > 0 {
		p.K = in.K
	}
	if in.Budget > 0 {
		// Below the frame's size nothing fits, and an empty answer would
		// read as "nothing relevant": give the smallest useful budget.
		p.Budget = max(in.Budget, recall.MinBudget())
	}
	out := RecallOut{Files: []string{}, Memories: []RecalledMemory{}}
	q := workspace.Query{Text: in.Query, Policy: p, KeptOnly: true}
	ws, err := h.openRead(in.Project)
	var rec workspace.Recalled
	switch {
	case errors.Is(err, memdir.ErrNotFound):
		// No memories of the project's own: its team's or the user's
		// global ones, else what synthesis learned may still answer.
		env, l, lerr := h.p.layout(in.Project)
		if lerr != nil {
			return text("No memories for this project yet."), out, nil
		}
		others, _, oerr := workspace.OpenOthersReader(env, l)
		if oerr != nil || others == nil {
			rec = workspace.RecallSynthesis(env, l, q)
		} else if rec, err = h.recallHeld(ctx, others, q); err != nil {
			// Unreadable: what synthesis learned may still answer.
			rec = workspace.RecallSynthesis(env, l, q)
		}
	case err != nil:
		return nil, out, err
	default:
		if rec, err = h.recallHeld(ctx, ws, q); err != nil {
			return nil, out, err
		}
	}
	out.Text, out.Tokens = rec.Text, rec.Tokens()
	if files := rec.Kept(); files != nil {
		out.Files = files
	}
	out.Memories = recalledMemories(rec)
	if out.Text == "" {
		return text("No memory is relevant enough to this query."), out, nil
	}
	return text("%s", out.Text), out, nil
}

// NameIn names one memory.
type NameIn struct {
	Common
	Name  string `json:"name" jsonschema:"the memory's name or file (as memory_list shows it: team/<file> for a team memory)"`
	Scope string `json:"scope,omitempty" jsonschema:"private (default) or team; a name written team/<file> is a team memory"`
}

// MemoryOut is one memory in full.
type MemoryOut struct {
	File         string    `json:"file"` // team/<file> for a team memory
	Name         string    `json:"name"`
	Description  string    `json:"description"`
	Type         string    `json:"type"`
	Scope        string    `json:"scope"`            // the folder's: private or team
	Author       string    `json:"author,omitempty"` // who added a team memory
	Created      time.Time `json:"created,omitzero"`
	Updated      time.Time `json:"updated,omitzero"`
	Source       string    `json:"source,omitempty"`
	Trust        string    `json:"trust,omitempty"`
	Refs         []string  `json:"refs,omitempty"`
	SupersededBy string    `json:"superseded_by,omitempty"`
	Body         string    `json:"body"`
}

func memoryOut(ws *workspace.Workspace, m memdir.Memory) MemoryOut {
	return MemoryOut{File: ws.ShownName(m.File), Name: m.Title(), Description: m.Summary(), Type: string(m.Type), Scope: ws.Scope(), Author: m.Author,
		Created: m.Created, Updated: m.Updated, Source: m.Source, Trust: m.Trust, Refs: m.Refs, SupersededBy: m.SupersededBy, Body: m.Body}
}

func (h *handlers) get(ctx context.Context, _ *mcp.CallToolRequest, in NameIn) (*mcp.CallToolResult, MemoryOut, error) {
	ws, scope, name, err := h.p.named(in.Project, in.Scope, in.Name)
	if err != nil {
		return nil, MemoryOut{}, toolHint(err)
	}
	m, err := ws.Store.Get(name)
	if err != nil {
		return nil, MemoryOut{}, h.p.notPrivate(in.Project, scope, name, err)
	}
	o := memoryOut(ws, m)
	// As recall's: a file memdir did not write may hold a credential.
	o.Description, _ = redact.String(o.Description)
	o.Body, _ = redact.String(o.Body)
	by := ""
	if o.Scope == memdir.ScopeTeam {
		by = " (team memory, by " + o.Author + ")"
	}
	return text("[%s] %s — %s%s\n\n%s", o.Type, o.File, o.Description, by, o.Body), o, nil
}

// UpdateIn changes a memory.
type UpdateIn struct {
	Common
	Name        string `json:"name" jsonschema:"the memory's name or file (team/<file> for a team memory)"`
	Scope       string `json:"scope,omitempty" jsonschema:"private (default) or team"`
	Description string `json:"description,omitempty" jsonschema:"a new one-line description"`
	Body        string `json:"body,omitempty" jsonschema:"a new body, replacing the old one"`
	Type        string `json:"type,omitempty" jsonschema:"a new type"`
}

func (h *handlers) update(ctx context.Context, _ *mcp.CallToolRequest, in UpdateIn) (*mcp.CallToolResult, SaveOut, error) {
	ws, scope, name, err := h.p.named(in.Project, in.Scope, in.Name)
	if err != nil {
		return nil, SaveOut{}, toolHint(err)
	}
	res, err := ws.Update(ctx, workspace.UpdateRequest{Name: name, Type: in.Type, Description: in.Description, Body: in.Body})
	if err != nil {
		return nil, SaveOut{}, toolHint(h.p.notPrivate(in.Project, scope, name, err))
	}
	head := "updated " + ws.ShownName(res.File)
	if ws.IsTeam() {
		head += " (commit " + paths.TeamFolder + " to share the change)"
	}
	out, msg := saveReport(res, ws.Scope(), head)
	return text("%s", msg), out, nil
}

// ForgetIn removes a memory.
type ForgetIn struct {
	Common
	Name  string `json:"name" jsonschema:"the memory's name or file (team/<file> for a team memory)"`
	Scope string `json:"scope,omitempty" jsonschema:"private (default) or team: forgetting a team memory deletes it for every collaborator once committed"`
	Purge bool   `json:"purge,omitempty" jsonschema:"delete the file instead of moving it aside"`
}

// ForgetOut is memory_forget's result.
type ForgetOut struct {
	File         string `json:"file"`  // team/<file> for a team memory
	Scope        string `json:"scope"` // private or team
	Removed      bool   `json:"file_removed"`
	MovedTo      string `json:"moved_to,omitempty"`
	Purged       bool   `json:"purged"`
	IndexRemoved bool   `json:"index_line_removed"`
	// Tombstone is the file a team folder keeps of the forgotten memory,
	// relative to the project (commit it with the removal).
	Tombstone string `json:"tombstone,omitempty"`
}

func (h *handlers) forget(ctx context.Context, _ *mcp.CallToolRequest, in ForgetIn) (*mcp.CallToolResult, ForgetOut, error) {
	ws, scope, name, err := h.p.named(in.Project, in.Scope, in.Name)
	if err != nil {
		return nil, ForgetOut{}, toolHint(err)
	}
	res, err := ws.Store.Forget(ctx, name, in.Purge)
	out := ForgetOut{File: ws.ShownName(res.File), Scope: ws.Scope(), Removed: res.Removed, MovedTo: res.MovedTo, Purged: res.Purged, IndexRemoved: res.IndexRemoved}
	if res.Tombstone != "" {
		out.Tombstone = path.Join(paths.TeamFolder, filepath.ToSlash(res.Tombstone))
	}
	if err != nil {
		// A team memory is forgotten only when asked for by scope or name.
		return nil, out, h.p.notPrivate(in.Project, scope, name, err)
	}
	if out.Tombstone != "" {
		return text("forgot %s; tombstone %s: commit both to delete it for every collaborator", out.File, out.Tombstone), out, nil
	}
	if res.MovedTo != "" {
		return text("forgot %s (moved to %s)", out.File, res.MovedTo), out, nil
	}
	return text("forgot %s", out.File), out, nil
}

// SearchIn is transcript_search's input.
type SearchIn struct {
	Project    string `json:"project,omitempty" jsonschema:"only sessions run in this project (absolute path); default: every project"`
	Pattern    string `json:"pattern" jsonschema:"a literal string, or a regular expression with regex"`
	Regex      bool   `json:"regex,omitempty" jsonschema:"pattern is a regular expression (RE2)"`
	IgnoreCase bool   `json:"ignore_case,omitempty"`
	Role       string `json:"role,omitempty" jsonschema:"only user or only assistant messages"`
	Since      string `json:"since,omitempty" jsonschema:"only messages from this day on: YYYY-MM-DD, today or yesterday"`
	Limit      int    `json:"limit,omitempty" jsonschema:"at most this many results (default 20)"`
}

// SearchOut is transcript_search's result.
type SearchOut struct {
	Results []search.Result `json:"results"`
	Stats   search.Stats    `json:"stats"`
}

func (h *handlers) searchTranscripts(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	out := SearchOut{Results: []search.Result{}}
	opt := search.Options{Pattern: in.Pattern, Regex: in.Regex, IgnoreCase: in.IgnoreCase, Role: in.Role, Limit: in.Limit}
	if opt.Limit <= 0 {
		opt.Limit = 20
	}
	if in.Role != "" && in.Role != "user" && in.Role != "assistant" {
		return nil, out, fmt.Errorf("role %q is neither user nor assistant", in.Role)
	}
	if in.Since != "" {
		d, err := sessions.ParseDay(in.Since, time.Local, time.Now())
		if err != nil {
			return nil, out, err
		}
		t, _ := time.ParseInLocation(time.DateOnly, d, time.Local)
		opt.Since = t
	}
	if in.Project != "" {
		_, l, err := h.p.Store(in.Project, false)
		if err != nil && !errors.Is(err, memdir.ErrNotFound) {
			return nil, out, err
		}
		opt.Project = l.ProjectRoot
	}
	files, _ := sessions.Discover(h.p.Transcripts())
	var b strings.Builder
	st, err := search.Run(ctx, files, opt, func(r search.Result) error {
		r = workspace.RedactedResult(r)
		out.Results = append(out.Results, r)
		fmt.Fprintf(&b, "%s %s %s (session %s, line %d): %s\n", r.Time.Local().Format("2006-01-02 15:04"), r.Role, r.Project, r.SessionID, r.Line, strings.TrimSpace(r.Text))
		return nil
	})
	out.Stats = st
	if err != nil && st.Files == 0 {
		return nil, out, err
	}
	if b.Len() == 0 {
		fmt.Fprintf(&b, "No matches in %d transcripts.\n", st.Files)
	}
	return text("%s", b.String()), out, nil
}

func (h *handlers) index(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	st, _, err := h.p.Store("", false)
	if errors.Is(err, memdir.ErrNotFound) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: ""}}}, nil
	}
	if err != nil {
		return nil, err
	}
	// As the CLI's index: a missing MEMORY.md is rebuilt from the files.
	ld, err := st.LoadIndex(ctx)
	if err != nil {
		return nil, err
	}
	body, _ := redact.String(ld.Text)
	if ld.Warning != "" {
		body += "\n\n" + ld.Warning
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: body}}}, nil
}

func (h *handlers) memoryFile(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	u, err := url.Parse(req.Params.URI)
	if err != nil || u.Host != "memory" {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	file := strings.TrimPrefix(u.Path, "/")
	st, _, err := h.p.Store("", false)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	raw, _, err := st.Raw(file)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: string(raw)}}}, nil
}
