// Package claudeinstall merges memdir's hooks into a Claude Code settings
// document and takes them out again. Install, Uninstall and their MCP
// counterparts work on the parsed document (see Parse and Encode); Apply
// (and Plan, its dry run) is the whole 'memdir install claude' on files:
// which file a scope means, backups, atomic replacement, and the refusals
// (the memdir plugin already enabled, a read-only file, a 'go run' binary).
//
// memdir's handlers are recognised by their command's shape, whatever the
// binary is called: one shell word naming it, then "hook <Event>" (see
// isMemdir). Parse and Encode keep the bytes of everything an edit does
// not touch, so install then uninstall gives back the file as it was.
// Everything else in the document — other keys, other
// hooks, other handlers in the same matcher group — is left as it was.
package claudeinstall

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Handler is the hook memdir registers for one event.
type Handler struct {
	Event   string
	Matcher string // "" for events that take none
	Timeout int    // seconds
}

// Handlers are memdir's hooks. SessionEnd's short timeout keeps Claude
// Code's shared 1.5 s SessionEnd budget from growing much: the hook only
// appends a line.
var Handlers = []Handler{
	{Event: "SessionStart", Matcher: "startup|resume|clear|compact", Timeout: 10},
	{Event: "UserPromptSubmit", Timeout: 10},
	{Event: "Stop", Timeout: 10},
	{Event: "SubagentStop", Timeout: 10},
	{Event: "PreCompact", Timeout: 10},
	{Event: "SessionEnd", Timeout: 2},
}

// Command is the command line of memdir's hook for event, with the binary
// quoted for the shell Claude Code runs it with.
func Command(bin, event string) string {
	return shellQuote(bin) + " hook " + event
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isMemdir reports whether a command is memdir's hook for event, by the
// shape Command writes: one shell word naming the binary, then exactly
// " hook <event>". The binary may have any name when its path is absolute
// (Command always writes the absolute path of the binary that installed,
// which may be called memdir-1.2); a bare or relative name counts only
// when it starts with memdir (the plugin's "memdir"), so somebody's own
// "mytool hook Stop" is not memdir's.
func isMemdir(command, event string) bool {
	rest, ok := strings.CutSuffix(strings.TrimSpace(command), " hook "+event)
	if !ok {
		return false
	}
	return isMemdirBinary(strings.TrimSpace(rest))
}

// isMemdirBinary reports whether word is one shell word naming a binary
// memdir could be: quoted whole, or without anything a shell would read as
// more than a path ("notify-send; memdir" is not one word); and either an
// absolute path or a name starting with memdir.
func isMemdirBinary(word string) bool {
	if len(word) >= 2 && word[0] == '\'' && word[len(word)-1] == '\'' {
		word = word[1 : len(word)-1]
		if strings.Contains(word, "'") {
			return false
		}
	} else if word == "" || strings.ContainsAny(word, " \t;&|<>()$`\"'*?=~") {
		return false
	}
	return isAbs(word) || strings.HasPrefix(word, "memdir")
}

// isAbs reports whether p is absolute on Unix or Windows: settings may
// come from either.
func isAbs(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// group is the matcher group that runs cmd for h's event.
func (h Handler) group(cmd string) *Object {
	handler := NewObject()
	handler.Set("type", "command")
	handler.Set("command", cmd)
	handler.Set("timeout", json.Number(itoa(h.Timeout)))
	group := NewObject()
	if h.Matcher != "" {
		group.Set("matcher", h.Matcher)
	}
	group.Set("hooks", []any{handler})
	return group
}

// ErrHooksNotObject says a settings file's "hooks" is not an object:
// memdir will not replace what it cannot read.
var ErrHooksNotObject = errors.New(`"hooks" is not a JSON object`)

// Install adds memdir's handlers to doc, or updates their command when the
// binary moved. It reports whether doc changed: installing twice changes
// nothing the second time.
func Install(doc *Object, bin string) (bool, error) {
	hooksObj := NewObject()
	if v, ok := doc.Get("hooks"); ok {
		o, isObj := v.(*Object)
		if !isObj {
			return false, ErrHooksNotObject
		}
		hooksObj = o
	}
	changed := false
	for _, h := range Handlers {
		groups, present := hooksObj.Get(h.Event)
		list, isList := groups.([]any)
		if present && !isList {
			return false, fmt.Errorf("hooks.%s is not a list", h.Event)
		}
		cmd := Command(bin, h.Event)
		found := false
		for _, g := range list {
			for _, handler := range handlersOf(g) {
				c, _ := handler.Get("command")
				if s, _ := c.(string); isMemdir(s, h.Event) {
					found = true
					if s != cmd {
						handler.Set("command", cmd)
						changed = true
					}
				}
			}
		}
		if found {
			continue
		}
		hooksObj.Set(h.Event, append(list, h.group(cmd)))
		changed = true
	}
	if changed {
		doc.Set("hooks", hooksObj)
	}
	return changed, nil
}

// Uninstall removes every memdir handler from doc, then the matcher
// groups, event lists and hooks object that removal left empty. It reports
// whether doc changed.
func Uninstall(doc *Object) bool {
	v, ok := doc.Get("hooks")
	hooksObj, isObj := v.(*Object)
	if !ok || !isObj {
		return false
	}
	changed := false
	for _, event := range append([]string(nil), hooksObj.Keys...) {
		list, ok := hooksObj.Vals[event].([]any)
		if !ok {
			continue
		}
		var keep []any
		for _, g := range list {
			group, ok := g.(*Object)
			if !ok {
				keep = append(keep, g) // not a matcher group: not ours, kept as it is
				continue
			}
			hs, _ := group.Vals["hooks"].([]any)
			if hs == nil {
				keep = append(keep, g)
				continue
			}
			var rest []any
			for _, h := range hs {
				handler, ok := h.(*Object)
				if ok {
					if c, _ := handler.Vals["command"].(string); isMemdir(c, event) {
						changed = true
						continue
					}
				}
				rest = append(rest, h)
			}
			if len(rest) == 0 && len(hs) > 0 {
				continue // the group held only memdir
			}
			group.Vals["hooks"] = rest
			keep = append(keep, g)
		}
		if len(keep) == 0 {
			hooksObj.Delete(event)
		} else {
			hooksObj.Vals[event] = keep
		}
	}
	if changed && len(hooksObj.Keys) == 0 {
		doc.Delete("hooks")
	}
	return changed
}

// Installed lists the events doc has a memdir handler for.
func Installed(doc *Object) []string {
	var out []string
	eachMemdirCommand(doc, func(event, _ string) { out = append(out, event) })
	return out
}

// eachMemdirCommand calls fn with the event and command of each memdir
// handler in doc's hooks, in order.
func eachMemdirCommand(doc *Object, fn func(event, command string)) {
	v, _ := doc.Get("hooks")
	hooksObj, ok := v.(*Object)
	if !ok {
		return
	}
	for _, event := range hooksObj.Keys {
		list, _ := hooksObj.Vals[event].([]any)
		for _, g := range list {
			for _, handler := range handlersOf(g) {
				if c, _ := handler.Vals["command"].(string); isMemdir(c, event) {
					fn(event, c)
				}
			}
		}
	}
}

func handlersOf(g any) []*Object {
	group, ok := g.(*Object)
	if !ok {
		return nil
	}
	hs, _ := group.Vals["hooks"].([]any)
	var out []*Object
	for _, h := range hs {
		if o, ok := h.(*Object); ok {
			out = append(out, o)
		}
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Binaries lists the memdir binaries doc's hooks call.
func Binaries(doc *Object) []string {
	var out []string
	eachMemdirCommand(doc, func(event, c string) {
		bin := strings.Trim(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c), " hook "+event)), "'")
		if !slices.Contains(out, bin) {
			out = append(out, bin)
		}
	})
	return out
}

// PluginsEnabled lists the memdir plugins a settings file enables
// ("memdir@memdir" in enabledPlugins): wired together with installed hooks,
// every memory would be given twice.
func PluginsEnabled(doc *Object) []string {
	v, _ := doc.Get("enabledPlugins")
	o, ok := v.(*Object)
	if !ok {
		return nil
	}
	var out []string
	for _, k := range o.Keys {
		if on, _ := o.Vals[k].(bool); on && strings.HasPrefix(k, "memdir@") {
			out = append(out, k)
		}
	}
	return out
}
