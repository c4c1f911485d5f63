package claudeinstall

import (
	"path/filepath"
	"strings"
)

// MCPName is the name memdir's MCP server is registered under.
const MCPName = "memdir"

// InstallMCP registers memdir's MCP server (bin mcp, over stdio) in the
// "mcpServers" object found under the keys of at (none: the top level), as
// 'claude mcp add' writes it. It reports whether doc changed; an entry of
// that name that is not memdir's is an error, not overwritten.
func InstallMCP(doc *Object, at []string, bin string) (bool, error) {
	parent, err := descend(doc, at, true)
	if err != nil {
		return false, err
	}
	servers, err := child(parent, "mcpServers", true)
	if err != nil {
		return false, err
	}
	if v, ok := servers.Get(MCPName); ok {
		cur, isObj := v.(*Object)
		if !isObj || !isMemdirServer(cur) {
			return false, errMCPTaken
		}
		if c, _ := cur.Get("command"); c == bin {
			return false, nil
		}
		cur.Set("command", bin)
		return true, nil
	}
	entry := NewObject()
	entry.Set("type", "stdio")
	entry.Set("command", bin)
	entry.Set("args", []any{"mcp"})
	entry.Set("env", NewObject())
	servers.Set(MCPName, entry)
	return true, nil
}

// UninstallMCP removes memdir's server from the "mcpServers" under at, and
// the objects that removal left empty (up to, not including, the document).
func UninstallMCP(doc *Object, at []string) bool {
	parent, err := descend(doc, at, false)
	if err != nil || parent == nil {
		return false
	}
	servers, err := child(parent, "mcpServers", false)
	if err != nil || servers == nil {
		return false
	}
	v, ok := servers.Get(MCPName)
	cur, isObj := v.(*Object)
	if !ok || !isObj || !isMemdirServer(cur) {
		return false
	}
	servers.Delete(MCPName)
	if len(servers.Keys) == 0 {
		parent.Delete("mcpServers")
	}
	// Up the path: an object install made for memdir alone
	// ({"projects": {"/src/app": {}}}) goes with it.
	for i := len(at); i > 0; i-- {
		obj, err := descend(doc, at[:i], false)
		if err != nil || obj == nil || len(obj.Keys) > 0 {
			break
		}
		up, err := descend(doc, at[:i-1], false)
		if err != nil || up == nil {
			break
		}
		up.Delete(at[i-1])
	}
	return true
}

// MCPInstalled reports whether memdir's server is registered under at.
func MCPInstalled(doc *Object, at []string) bool {
	parent, err := descend(doc, at, false)
	if err != nil || parent == nil {
		return false
	}
	servers, _ := child(parent, "mcpServers", false)
	if servers == nil {
		return false
	}
	v, _ := servers.Get(MCPName)
	cur, ok := v.(*Object)
	return ok && isMemdirServer(cur)
}

// isMemdirServer reports whether an MCP server entry is memdir's: its
// binary is named memdir…, or it runs "<absolute binary> mcp" as
// InstallMCP writes it (any name: memdir-1.2 too).
func isMemdirServer(o *Object) bool {
	c, _ := o.Get("command")
	s, _ := c.(string)
	if s == "" {
		return false
	}
	if strings.HasPrefix(filepath.Base(s), "memdir") {
		return true
	}
	args, _ := o.Get("args")
	a, _ := args.([]any)
	return isAbs(s) && len(a) == 1 && a[0] == "mcp"
}

var errMCPTaken = errorString(`an MCP server named "memdir" that is not memdir's is already registered`)

type errorString string

func (e errorString) Error() string { return string(e) }

// descend walks keys from doc, making objects when create is set; it
// returns nil when a key is missing and create is not.
func descend(doc *Object, keys []string, create bool) (*Object, error) {
	cur := doc
	for _, k := range keys {
		next, err := child(cur, k, create)
		if err != nil || next == nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

func child(o *Object, key string, create bool) (*Object, error) {
	v, ok := o.Get(key)
	if !ok {
		if !create {
			return nil, nil
		}
		c := NewObject()
		o.Set(key, c)
		return c, nil
	}
	c, isObj := v.(*Object)
	if !isObj {
		return nil, errorString(`"` + key + `" is not a JSON object`)
	}
	return c, nil
}
