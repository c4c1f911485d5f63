package main

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/memdir/memdir/internal/mcpserver"
	"github.com/memdir/memdir/internal/workspace"
)

// version is memdir's version as the MCP server reports it.

// maxMCPRequest bounds one HTTP request to the MCP server.
const maxMCPRequest = 4 << 20

func (a *app) mcpCmd() *cobra.Command {
	var addr, token string
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR [--token T]]",
		Short: "Serve memdir's memory over the Model Context Protocol",
		Long: `Mcp serves the project's memory to MCP clients (Claude Code, Codex CLI, Gemini
CLI, Claude Desktop, Cursor, …): tools memory_save, memory_recall,
memory_get, memory_list, memory_update, memory_forget and transcript_search,
and resources memdir://index (MEMORY.md as loaded) and memdir://memory/{file}.

It serves the project of its working directory (or --project); every tool
also takes a "project" argument for clients that work across projects.

By default it speaks over stdin and stdout. With --http ADDR it serves
streamable HTTP at http://ADDR/mcp instead (a bare port means 127.0.0.1),
and every request must carry "Authorization: Bearer <token>": give the token
with --token or MEMDIR_MCP_TOKEN, or a random one is made and printed on
stderr. Requests are limited to 4 MiB.`,
		Example: `  claude mcp add memdir -- memdir mcp
  memdir mcp --http 7777
  MEMDIR_MCP_TOKEN=secret memdir mcp --http 127.0.0.1:7777`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := a.layout(); err != nil {
				return err
			}
			srv := mcpserver.New(a.mcpEnv(), version)
			if addr == "" {
				return srv.Run(a.ctx, &mcp.StdioTransport{})
			}
			if token == "" {
				token = a.getenv("MEMDIR_MCP_TOKEN")
			}
			return a.serveMCP(srv, addr, token)
		},
	}
	cmd.Flags().StringVar(&addr, "http", "", "serve streamable HTTP on this address (port, or host:port)")
	cmd.Flags().StringVar(&token, "token", "", "bearer token HTTP clients must send (default $MEMDIR_MCP_TOKEN, else random)")
	return cmd
}

func (a *app) serveMCP(srv *mcp.Server, addr, token string) error {
	if !strings.Contains(addr, ":") {
		addr = "127.0.0.1:" + addr
	}
	if strings.HasPrefix(addr, ":") {
		addr = "127.0.0.1" + addr // ":7777" is this machine only, as the help says; name a host to listen wider
	}
	if token == "" {
		b := make([]byte, 24)
		rand.Read(b)
		token = hex.EncodeToString(b)
		fmt.Fprintf(a.stderr, "memdir mcp: token %s\n", token)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return withHint(err, "choose another address with --http")
	}
	hs := &http.Server{Handler: mcpHandler(srv, token), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 5 * time.Minute,
		MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(a.stderr, "memdir mcp: serving http://%s/mcp\n", ln.Addr())
	go func() {
		<-a.ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return a.ctx.Err()
}

// mcpHandler serves srv's streamable HTTP at /mcp behind the token.
func mcpHandler(srv *mcp.Server, token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: maxMCPRequest, SessionTimeout: 30 * time.Minute})
	mux := http.NewServeMux()
	mux.Handle("/mcp", bearer(token, h))
	return mux
}

// bearer lets through only requests carrying the token.
func bearer(token string, next http.Handler) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The scheme is case-insensitive (RFC 9110 §11.1); the token is not.
		scheme, got, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimLeft(got, " ")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="memdir"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// mcpEnv is the server's environment: every call opens its project afresh,
// so concurrent requests share nothing mutable.
func (a *app) mcpEnv() workspace.Env {
	env := a.env()
	env.Holder = "memdir mcp"
	return env
}
