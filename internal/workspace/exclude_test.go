package workspace

import "testing"

func TestExcluded(t *testing.T) {
	pats := []string{"~/clients", "/srv/secret/", "*/scratch/*", "tmp-*", "   ", "relative/path"}
	for _, tc := range []struct {
		root, cwd, want string
	}{
		{"/home/me/clients/acme", "", "~/clients"},
		{"/home/me/clients", "", "~/clients"},
		{"/home/me/clientsX", "", ""},
		{"/srv/secret/api", "", "/srv/secret/"},
		{"/srv/secrets", "", ""},
		{"/home/me/scratch/x", "", "*/scratch/*"},
		{"/work/tmp-42", "", "tmp-*"},
		{"/work/api", "/home/me/clients/acme/sub", "~/clients"},
		{"/work/api", "", ""},
		{"/work/relative/path", "", "relative/path"},
	} {
		if got := excluded(pats, "/home/me", tc.root, tc.cwd); got != tc.want {
			t.Errorf("excluded(%q, %q) = %q, want %q", tc.root, tc.cwd, got, tc.want)
		}
	}
	if got := excluded(nil, "/home/me", "/home/me/clients", ""); got != "" {
		t.Errorf("no patterns excluded %q", got)
	}
}
