package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/memdir/memdir/internal/mcpserver"
	"github.com/memdir/memdir/internal/workspace"
)

func (a *app) mcpCmd() *cobra.Command {
	var addr, token string
	cmd := &cobra.Command{
		Use:   "mcp [--http ADDR [--token T]]",
		Short: "Serve memdir's memory over the Model Context Protocol",
		Long: `Mcp serves the project's memory to MCP clients (Claude Code, Codex CLI, Gemini
CLI, Claude Desktop, Cursor, …): tools memory_save, memory_recall, memory_get,
memory_list, memory_update, memory_forget, memory_feedback, transcript_search,
and resources memdir://index (MEMORY.md as loaded) and memdir://memory/{file}.

It serves the project of its working directory (or --project); every tool
also takes a "project" argument for clients that work across projects.

By default it speaks over stdin and stdout. With --http ADDR it serves
streamable HTTP at http://ADDR/mcp instead (a bare port means 127.0.0.1),
and every request must carry "Authorization: Bearer <token>": give the token
with --token or MEMDIR_MCP_TOKEN (at least 32 characters), or a random one is
made and printed on stderr. Browsers' requests from another origin are
refused, requests are limited to 4 MiB, and no session is kept between
requests. Listening beyond this machine (0.0.0.0, a LAN address) is warned
about.`,
		Example: `  claude mcp add memdir -- memdir mcp
  memdir mcp --http 7777
  MEMDIR_MCP_TOKEN=$(openssl rand -hex 24) memdir mcp --http 127.0.0.1:7777`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := a.layout(); err != nil {
				return err
			}
			srv := mcpserver.New(a.mcpEnv(), version)
			defer srv.Close()
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

func (a *app) serveMCP(srv *mcpserver.Server, addr, token string) error {
	addr, everywhere, err := mcpserver.ListenAddr(addr)
	if err != nil {
		return err
	}
	if token != "" {
		if err := mcpserver.CheckToken(token); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return withHint(err, "choose another address with --http")
	}
	if token == "" {
		b := make([]byte, 24)
		rand.Read(b)
		token = hex.EncodeToString(b)
		fmt.Fprintf(a.stderr, "memdir mcp: token %s\n", token)
	}
	if everywhere {
		a.warnf("listening on %s: other machines can reach this server and try its token; use 127.0.0.1 unless they must", ln.Addr())
	}
	hs := &http.Server{Handler: mcpserver.Handler(srv, token), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 5 * time.Minute,
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

// mcpEnv is the server's environment: every call opens its project afresh;
// what calls share is each project's recall snapshot, which the server
// guards and keeps fresh by watching the folder.
func (a *app) mcpEnv() workspace.Env {
	env := a.env()
	env.Holder = "memdir mcp"
	return env
}
