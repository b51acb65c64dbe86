package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/server/sshcmd"
)

// TestTheCommandPlayersAreToldToTypeNamesThePublicAddress: hints name
// --public-ssh exactly (no -p for port 22); without it, <host> and the
// listener's port.
func TestTheCommandPlayersAreToldToTypeNamesThePublicAddress(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		tty  bool
		args []string
		want string
	}{
		{Config{Listen: ":23234", PublicSSH: "play.example.org:2222"}, false, []string{"web"}, "ssh -p 2222 play.example.org web"},
		{Config{Listen: ":23234", PublicSSH: "play.example.org:22"}, false, []string{"web"}, "ssh play.example.org web"},
		{Config{Listen: ":23234", PublicSSH: "play.example.org:2222"}, true, []string{"replay", "7"}, "ssh -t -p 2222 play.example.org replay 7"},
		{Config{Listen: ":23234", PublicSSH: "[fd00::5]:2222"}, true, nil, "ssh -t -p 2222 fd00::5"},
		{Config{Listen: ":23234", PublicSSH: "play.example.org:022"}, false, []string{"web"}, "ssh play.example.org web"},
		{Config{Listen: ":23234", PublicSSH: "play.example.org:02222"}, false, nil, "ssh -p 2222 play.example.org"},
		{Config{Listen: "127.0.0.1:2200"}, false, []string{"web"}, "ssh -p 2200 <host> web"},
		{Config{Listen: ":22"}, true, nil, "ssh -t <host>"},
	} {
		if got := c.cfg.SSHCommand(c.tty, c.args...); got != c.want {
			t.Errorf("listen %q, public %q: SSHCommand(%v, %q) = %q, want %q", c.cfg.Listen, c.cfg.PublicSSH, c.tty, c.args, got, c.want)
		}
	}
}

func TestASessionWithoutATerminalIsToldThePublicAddress(t *testing.T) {
	cfg := Config{Listen: "127.0.0.1:2222", PublicSSH: "play.example.org:443"}
	addr := unit(t, requirePTY(func() string { return cfg.SSHCommand(true) }))
	_, errs, status := run(t, login(t, addr, "x", newKey(t)), "")
	if status != 1 || !strings.Contains(errs, "ssh -t -p 443 play.example.org\r") {
		t.Errorf("no PTY behind a public address: status %d, %q; want the public command", status, errs)
	}
	if got := sshcmd.NoPTYReplay(cfg.SSHCommand(true, "replay", "5")); !strings.HasSuffix(got, ": ssh -t -p 443 play.example.org replay 5") {
		t.Errorf("replay without a terminal: %q, want the public command", got)
	}
	if got := sshcmd.NoPTYReplay(Config{Listen: ":23234"}.SSHCommand(true, "replay", "5")); !strings.HasSuffix(got, ": ssh -t -p 23234 <host> replay 5") {
		t.Errorf("replay without a terminal, no public address: %q, want <host> and the listener's port", got)
	}
}

// TestTheWebRefusalsNameThePublicSSHCommandInCode: a forged link's page
// says what to type in a <code> element, with the public address (or
// <host> and the listener's port), never in backticks.
func TestTheWebRefusalsNameThePublicSSHCommandInCode(t *testing.T) {
	for public, want := range map[string]string{
		"play.example.org:2222": "<code>ssh -p 2222 play.example.org web</code>",
		"":                      "<code>ssh -p PORT &lt;host&gt; web</code>",
	} {
		srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", PublicSSH: public})
		want = strings.Replace(want, "PORT", PortOf(addr), 1)
		code, body := get(t, noRedirects(t), "http://"+srv.HTTPAddr().String()+"/play/abc")
		if code != http.StatusForbidden || !strings.Contains(body, want) || strings.Contains(body, "`") {
			t.Errorf("--public-ssh %q: a forged link's page: %d %q; want 403 with %s and no backtick", public, code, body, want)
		}
	}
}
