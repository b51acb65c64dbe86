package server

import (
	"strings"
	"testing"
)

func TestAnAddressNeedsAPortNumberFrom1To65535(t *testing.T) {
	for _, tc := range []struct {
		listen, pprof string
		wrong         string // the flag the error names; "" for valid
	}{
		{":23234", "", ""},
		{"127.0.0.1:0", "", ""}, // any free port: the tests listen so
		{"[::1]:65535", "127.0.0.1:6060", ""},
		{"127.0.0.1:", "", "--listen"},
		{":", "", "--listen"},
		{":99999", "", "--listen"},
		{":65536", "", "--listen"},
		{":abc", "", "--listen"},
		{":ssh", "", "--listen"},
		{":-1", "", "--listen"},
		{":23234", "127.0.0.1:", "--pprof"},
		{":23234", "127.0.0.1:0", "--pprof"}, // a profiler on a port nobody is told
		{":23234", "localhost:99999", "--pprof"},
		{":23234", "[::1]:abc", "--pprof"},
	} {
		c := Config{Listen: tc.listen, Pprof: tc.pprof, DataDir: t.TempDir()}.withDefaults()
		err := c.Validate()
		switch {
		case tc.wrong == "" && err != nil:
			t.Errorf("--listen %q --pprof %q refused: %v", tc.listen, tc.pprof, err)
		case tc.wrong != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wrong)):
			t.Errorf("--listen %q --pprof %q: %v, want an error naming %s", tc.listen, tc.pprof, err, tc.wrong)
		}
	}
}

func TestTheWebBaseURLMustBeAnHTTPURLAndNeedsTheWebPages(t *testing.T) {
	for _, tc := range []struct {
		http, url string
		ok        bool
	}{
		{":8080", "https://play.example.org", true},
		{":8080", "http://203.0.113.7:8080/", true},
		{"", "https://play.example.org", false}, // no web pages to link to
		{":8080", "play.example.org", false},
		{":8080", "ftp://play.example.org", false},
		{":8080", "https://", false},
		{":8080", "https://user:pw@play.example.org", false},
		{":8080", "https://play.example.org/?x=1", false},
		{":8080", "https://play.example.org/grotto/", false}, // links and cookies are at the root
	} {
		c := Config{Listen: ":23234", HTTP: tc.http, HTTPURL: tc.url, DataDir: t.TempDir()}.withDefaults()
		err := c.Validate()
		if tc.ok != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), "--http-url")) {
			t.Errorf("--http %q --http-url %q: %v, want ok=%v or an error naming --http-url", tc.http, tc.url, err, tc.ok)
		}
	}
}

func TestABadPublicSSHAddressIsOneLineNamingTheFlag(t *testing.T) {
	// Hosts players would paste into a shell: only a host name or an IP
	// address is taken, never shell syntax, an ssh option or a newline.
	for _, bad := range []string{"play.example.org", ":2222", "play.example.org:0", "play.example.org:x",
		"h;id:22", "h|id>x:22", "ex$(id).org:22", "a`id`:22", "a'b:22", "x&y:22", "-:22", "-oProxyCommand=x:22",
		"host\n:22", "-host.org:22", "a..b:22", "host.org.:22x", "[fe80::1%eth0]:22"} {
		c := Config{Listen: ":23234", DataDir: t.TempDir(), FPS: DefaultFPS, Limits: DefaultLimits(), PublicSSH: bad}
		err := c.Validate()
		var se *SettingError
		if !errorsAs(err, &se) || se.Flag != "--public-ssh" || strings.Contains(err.Error(), "\n") {
			t.Errorf("--public-ssh %q: %v, want one line naming --public-ssh", bad, err)
		}
	}
}

func TestABadHTTPTrustedProxyIsOneLineNamingTheFlag(t *testing.T) {
	for _, c := range []struct {
		http    string
		proxies []string
	}{
		{":8080", []string{"10.0.0.5/24"}},
		{":8080", []string{"proxy.example.org"}},
		{":8080", []string{""}},
		{"", []string{"10.0.0.5"}}, // no web pages to be in front of
	} {
		cfg := Config{Listen: ":23234", DataDir: t.TempDir(), FPS: DefaultFPS, Limits: DefaultLimits(), HTTP: c.http, HTTPTrustedProxy: c.proxies}
		err := cfg.Validate()
		var se *SettingError
		if !errorsAs(err, &se) || se.Flag != "--http-trusted-proxy" || strings.Contains(err.Error(), "\n") {
			t.Errorf("--http %q --http-trusted-proxy %q: %v, want one line naming --http-trusted-proxy", c.http, c.proxies, err)
		}
	}
	good := Config{Listen: ":23234", DataDir: t.TempDir(), FPS: DefaultFPS, Limits: DefaultLimits(), HTTP: ":8080", HTTPTrustedProxy: []string{"10.0.0.0/24", "fd00::5"}}
	if err := good.Validate(); err != nil {
		t.Errorf("a range and an address: %v", err)
	}
}
