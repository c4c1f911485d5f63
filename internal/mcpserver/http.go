package mcpserver

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memdir/memdir/internal/hint"
)

// MaxRequest bounds one HTTP request to the server.
const MaxRequest = 4 << 20

// MinToken is the shortest bearer token the HTTP server takes: 32
// characters, as the random one it makes is 48.
const MinToken = 32

// CheckToken refuses a bearer token short enough to guess.
func CheckToken(token string) error {
	if len(token) < MinToken {
		return hint.With(fmt.Errorf("the bearer token has %d characters; the HTTP server needs at least %d", len(token), MinToken),
			"leave --token and MEMDIR_MCP_TOKEN unset for a random one, or make one with 'openssl rand -hex 24'")
	}
	if strings.Count(token, token[:1]) == len(token) {
		return hint.With(errors.New("the bearer token is one character repeated"), "make one with 'openssl rand -hex 24'")
	}
	return nil
}

// ListenAddr reads --http's value: a bare port or ":port" is this machine
// only (127.0.0.1); "host:port" listens where it says. everywhere reports
// a host that is not a loopback address (0.0.0.0, a LAN address), which
// other machines can reach.
func ListenAddr(addr string) (hostport string, everywhere bool, err error) {
	bad := func(why string) (string, bool, error) {
		return "", false, hint.With(fmt.Errorf("--http %q: %s", addr, why), "give a port (7777) or host:port (127.0.0.1:7777)")
	}
	host, port := "127.0.0.1", addr
	if strings.Contains(addr, ":") {
		h, p, err := net.SplitHostPort(addr)
		if err != nil {
			return bad(err.Error())
		}
		if h != "" {
			host = h
		}
		port = p
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return bad("the port is not a number from 0 to 65535")
	}
	ip := net.ParseIP(host)
	everywhere = host != "localhost" && (ip == nil || !ip.IsLoopback())
	return net.JoinHostPort(host, port), everywhere, nil
}

// Handler serves srv as streamable HTTP at /mcp, to requests that carry
// the bearer token and, from a browser, come from the server's own origin.
// It is stateless: no session outlives its request, so clients that
// initialize again and again cannot grow the server (40,000 sessions held
// 530 MB for their 30-minute timeout).
func Handler(srv *Server, token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.Server },
		&mcp.StreamableHTTPOptions{Stateless: true, MaxRequestBodyBytes: MaxRequest, SessionTimeout: 30 * time.Minute})
	mux := http.NewServeMux()
	mux.Handle("/mcp", sameOrigin(bearer(token, h)))
	return mux
}

// sameOrigin refuses a request whose Origin header names another origin
// than the one it was sent to: the MCP transport requires servers to check
// it, or a web page the user visits could drive the server (DNS
// rebinding). Clients that are not browsers send no Origin.
func sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			// The Host header is the client's to choose (DNS rebinding
			// sends the attacker's name): the origin must also name this
			// machine.
			u, err := url.Parse(o)
			if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) || !loopbackName(u.Hostname()) {
				http.Error(w, "origin "+o+" may not use this server", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackName reports whether host names this machine: localhost or a
// loopback address.
func loopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
