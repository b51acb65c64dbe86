package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store/bolt"
)

func TestFlagsWinOverEnvironmentAndEnvironmentOverDefaults(t *testing.T) {
	t.Setenv("GROTTO_LISTEN", ":9999")
	t.Setenv("GROTTO_DATA", "/srv/grotto")
	c, err := parse([]string{"serve", "--listen", "127.0.0.1:1"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "127.0.0.1:1" || c.DataDir != "/srv/grotto" || c.AdminKeys != "" {
		t.Errorf("config = %+v", c)
	}
	t.Setenv("GROTTO_BANNED_KEYS", "banned")
	if c, _ = parse(nil, &bytes.Buffer{}, &bytes.Buffer{}); c.BannedKeys != filepath.Join(wd(t), "banned") {
		t.Errorf("GROTTO_BANNED_KEYS=banned: BannedKeys %q, want it absolute", c.BannedKeys)
	}
	os.Unsetenv("GROTTO_BANNED_KEYS")
	os.Unsetenv("GROTTO_LISTEN")
	os.Unsetenv("GROTTO_DATA")
	c, _ = parse(nil, &bytes.Buffer{}, &bytes.Buffer{})
	if c.Listen != ":23234" || !filepath.IsAbs(c.DataDir) || filepath.Base(c.DataDir) != "grotto-data" {
		t.Errorf("defaults = %+v", c)
	}
}

func TestHelpListsEveryFlag(t *testing.T) {
	var out bytes.Buffer
	parse([]string{"--help"}, &out, &out)
	for _, f := range []string{"-listen", "-data", "-admin-keys", "-host-key", "-proxy-protocol-from", "-node", "-lease-ttl", "-banned-keys", "-drain", "GROTTO_DRAIN", "-log-format", "GROTTO_LOG_FORMAT",
		"GROTTO_BANNED_KEYS", "GROTTO_LISTEN", "GROTTO_DATA", "GROTTO_ADMIN_KEYS", "GROTTO_HOST_KEY", "GROTTO_PROXY_PROTOCOL_FROM", "GROTTO_NODE", "GROTTO_LEASE_TTL"} {
		if !strings.Contains(out.String(), f) {
			t.Errorf("--help does not mention %s", f)
		}
	}
	if _, err := parse([]string{"bogus"}, &out, &out); err == nil {
		t.Error("an unknown argument was accepted")
	}
	// Go's flag package takes a backquoted word in a flag's help for the
	// name of its value and drops the backquotes: "`ssh host web` links"
	// printed as "-http-url ssh host web" and "links begin with it".
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && strings.HasPrefix(f[0], "-") && !strings.HasPrefix(line, "    ") {
			t.Errorf("--help names a flag's value with words from its help: %q", line)
		}
	}
}

func wd(t *testing.T) string {
	t.Helper()
	d, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// keptSSH listens on a loopback port for the whole test and returns its
// address and the sockets to hand each grotto the test runs (runOn): a new
// descriptor of that one socket each time, so a server that stops closes
// only its own, and the next serves the same address, never free for
// another program to take in between.
func keptSSH(t *testing.T) (string, func() (sockets, error)) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String(), func() (sockets, error) {
		f, err := ln.(*net.TCPListener).File()
		if err != nil {
			return nil, err
		}
		defer f.Close()
		dup, err := net.FileListener(f)
		if err != nil {
			return nil, err
		}
		return sockets{server.BindSSH: dup}, nil
	}
}

// waitUntil calls cond until it holds, failing t after within with what
// it waited for.
func waitUntil(t *testing.T, within time.Duration, cond func() bool, what string) {
	t.Helper()
	await.Until(t, within, what, cond)
}

// dialSSH connects to the grotto the test runs on addr as key, trying
// again while it cannot (the server still starting), and fails t with the
// last error after 20 s.
func dialSSH(t *testing.T, addr string, key gossh.Signer) *sshtest.Client {
	t.Helper()
	var (
		c   *sshtest.Client
		err error
	)
	if !await.Within(20*time.Second, func() bool {
		c, err = sshtest.Dial(addr, key, sshtest.Options{})
		return err == nil
	}) {
		t.Fatal(err)
	}
	return c
}

// waitEnded waits up to within for c's session to end (after what),
// failing t with the screen if it does not.
func waitEnded(t *testing.T, c *sshtest.Client, within time.Duration, what string) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(within):
		t.Fatalf("the session still runs %v after %s; the screen:\n%s", within, what, c.Screen())
	}
}

// descriptorsOf counts this process's open descriptors of the file path
// (absolute, without symbolic links).
func descriptorsOf(t *testing.T, path string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd to see the database file opened: %v", err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
			n++
		}
	}
	return n
}

// noSockets is runOn's inherited for a grotto that binds its own.
func noSockets() (sockets, error) { return nil, nil }

func TestSIGTERMSavesTellsThePlayerAndExitsZero(t *testing.T) {
	addr, socks := keptSSH(t)
	code := make(chan int, 1)
	go func() { code <- runOn([]string{"serve", "--listen", addr, "--data", t.TempDir()}, socks) }()
	key, _ := sshtest.NewKey()
	c := dialSSH(t, addr, key)
	defer c.Close()
	if _, err := c.WaitForText(10*time.Second, "Choose the name"); err != nil {
		t.Fatal(err)
	}
	c.Send("\r") // the suggested name: the SSH user name
	if _, err := c.WaitForText(10*time.Second, "New game"); err != nil {
		t.Fatal(err)
	}
	c.Send("n")
	if _, err := c.WaitForText(10*time.Second, "Turn: 0"); err != nil {
		t.Fatal(err)
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit code %d, want 0", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10 s after SIGTERM")
	}
	waitEnded(t, c, 10*time.Second, "the session after SIGTERM")
	if !strings.Contains(string(c.Output()), "Your game is saved") {
		t.Error("the player was not told their game is saved")
	}
}

// TestASIGTERMWhileTheStoreOpensStopsTheServerCleanly: a stop sent while
// the server is still opening its store (here: waiting for the file's
// lock) is not lost and does not kill the process mid-open: the server
// starts, then stops at once with every game saved, exit 0.
func TestASIGTERMWhileTheStoreOpensStopsTheServerCleanly(t *testing.T) {
	dir := t.TempDir()
	held, err := bolt.Open(filepath.Join(dir, server.DBFile), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	file, err := filepath.EvalSymlinks(filepath.Join(dir, server.DBFile))
	if err != nil {
		t.Fatal(err)
	}
	code := make(chan int, 1)
	go func() { code <- runOn([]string{"serve", "--listen", "127.0.0.1:0", "--data", dir}, noSockets) }()
	// run is waiting for the lock (lockTimeout 2 s) once it has opened the
	// file, a second descriptor of it in this process: bolt.Open opens it,
	// then waits for its lock, and run's signal handler is in place before.
	waitUntil(t, 10*time.Second, func() bool { return descriptorsOf(t, file) >= 2 }, "run to open the database file and wait for its lock")
	// Delivered while it still waits: this test's own handler has it, and
	// Stop returns once the signal went to every handler (run's included).
	delivered := make(chan os.Signal, 1)
	signal.Notify(delivered, syscall.SIGTERM)
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case <-delivered:
		signal.Stop(delivered)
	case <-time.After(10 * time.Second):
		signal.Stop(delivered)
		t.Fatal("SIGTERM not delivered within 10 s")
	}
	held.Close()
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit code %d, want 0 (started, then stopped with every game saved)", got)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("still running 20 s after SIGTERM")
	}
}

func TestSIGHUPAddsAnAdminWithoutARestart(t *testing.T) {
	addr, socks := keptSSH(t)
	dir := t.TempDir()
	admins := filepath.Join(dir, "admins")
	os.WriteFile(admins, nil, 0o600) // no admins yet
	code := make(chan int, 1)
	go func() {
		code <- runOn([]string{"--listen", addr, "--data", filepath.Join(dir, "data"), "--admin-keys", admins}, socks)
	}()
	defer func() {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		select {
		case <-code:
		case <-time.After(20 * time.Second):
			t.Error("still running 20 s after SIGTERM")
		}
	}()
	key, _ := sshtest.NewKey()
	play := func() *sshtest.Client { return dialSSH(t, addr, key) }
	c := play()
	c.WaitForText(10*time.Second, "Choose the name")
	c.Send("\r")
	c.WaitForText(10*time.Second, "New game")
	c.Send("n")
	c.WaitForText(10*time.Second, "Turn: 0")
	c.Send(`\`)
	if _, err := c.WaitForText(10*time.Second, "Unknown command."); err != nil {
		t.Fatal(err)
	}
	c.Send("S")
	waitEnded(t, c, 10*time.Second, "S (save and quit)")
	c.Close()

	os.WriteFile(admins, gossh.MarshalAuthorizedKey(key.PublicKey()), 0o600)
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	for i := 0; ; i++ { // the reload is asynchronous: try new sessions until it lands
		c = play()
		c.WaitForText(10*time.Second, "Continue")
		c.Send("\r")
		c.WaitForText(10*time.Second, "Turn:")
		c.Send(`\`)
		if _, err := c.WaitForText(2*time.Second, "Teleport to exit"); err == nil {
			break
		} else if i > 10 {
			t.Fatal("SIGHUP did not make the key an admin: ", err)
		}
		c.Send("S")
		waitEnded(t, c, 10*time.Second, "S (save and quit)")
		c.Close()
	}
	c.Close()
}

func TestCompactSaysWhatIsWrongWithoutADatabase(t *testing.T) {
	var out, errs bytes.Buffer
	dir := t.TempDir()
	if code := compact([]string{"--data", dir}, &out, &errs); code != 1 || !strings.Contains(errs.String(), filepath.Join(dir, "grotto.db")) {
		t.Errorf("no database: exit %d, %q", code, errs.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "grotto.db")); err == nil {
		t.Error("compact created a database")
	}
	if code := compact([]string{"--help"}, &out, &errs); code != 0 || !strings.Contains(errs.String(), "Stop the server first") {
		t.Errorf("--help: exit %d, %q", code, errs.String())
	}
	if code := compact([]string{"extra"}, &out, &errs); code != 2 {
		t.Errorf("an extra argument: exit %d", code)
	}
}

func TestCompactOfAPostgreSQLStoreSaysInOneLineWhatToDoInstead(t *testing.T) {
	const url = "postgres://grotto:s3cret@db.example/grotto"
	for _, c := range []struct {
		name string
		args []string
		env  string
	}{
		{"from --store", []string{"--store", url}, ""},
		{"from GROTTO_STORE, as the server's container sets it", nil, url},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GROTTO_STORE", c.env)
			var out, errs bytes.Buffer
			dir := t.TempDir()
			code := compact(append([]string{"--data", dir}, c.args...), &out, &errs)
			msg := errs.String()
			if code != 2 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "PostgreSQL") ||
				!strings.Contains(msg, "autovacuum") || !strings.Contains(msg, "VACUUM FULL") {
				t.Errorf("exit %d, %q; want 2 and one line naming autovacuum and VACUUM FULL", code, msg)
			}
			if strings.Contains(msg, "s3cret") || out.Len() != 0 {
				t.Errorf("stdout %q, stderr %q: the password leaked or stdout was written", out.String(), msg)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("compact wrote %d files in the data dir", len(entries))
			}
		})
	}
}

func TestCompactCompactsTheBboltFileThatStoreNames(t *testing.T) {
	t.Setenv("GROTTO_STORE", "")
	path := filepath.Join(t.TempDir(), "elsewhere.db")
	db, err := bolt.Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	var out, errs bytes.Buffer
	if code := compact([]string{"--data", t.TempDir(), "--store", path}, &out, &errs); code != 0 || !strings.Contains(out.String(), path) {
		t.Errorf("--store %s: exit %d, stdout %q, stderr %q; want that file compacted", path, code, out.String(), errs.String())
	}
	if _, err := os.Stat(path + ".bak"); err != nil {
		t.Errorf("the old file is not kept beside it: %v", err)
	}
}

func TestHelpGoesToStdoutWithTheListenPort(t *testing.T) {
	var out, errs bytes.Buffer
	if _, err := parse([]string{"--listen", ":2222", "--help"}, &out, &errs); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("--help: %v", err)
	}
	if !strings.Contains(out.String(), "-listen") || errs.Len() != 0 {
		t.Errorf("--help wrote %d bytes to stdout and %q to stderr; want the usage on stdout", out.Len(), errs.String())
	}
	if !strings.Contains(out.String(), "ssh -p 2222 <host>") {
		t.Errorf("--help with --listen :2222 suggests: %q", out.String()[strings.LastIndex(out.String(), "Players"):])
	}
	out.Reset()
	errs.Reset()
	parse([]string{"--bogus"}, &out, &errs)
	if out.Len() != 0 || !strings.Contains(errs.String(), "-listen") {
		t.Errorf("a bad flag wrote %q to stdout; the usage belongs on stderr", out.String())
	}
}

func TestASecondServerOnTheSameDataDirStopsNamingTheFile(t *testing.T) {
	cfg := server.Config{DataDir: t.TempDir()}
	db, _, err := open(cfg, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, _, err = open(cfg, 200*time.Millisecond)
	if !errors.Is(err, bolt.ErrLocked) || !strings.Contains(err.Error(), filepath.Join(cfg.DataDir, server.DBFile)) {
		t.Fatalf("err = %v, want ErrLocked naming %s", err, server.DBFile)
	}
}

func TestABadSettingIsRefusedBeforeAnythingIsOpened(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a profiler off loopback", []string{"--pprof", "0.0.0.0:6060"}, "--pprof"},
		{"a profiler with no port", []string{"--pprof", "localhost"}, "--pprof"},
		{"a negative limit", []string{"--max-conns-per-addr", "-1"}, "--max-conns-per-addr"},
		{"a negative watchers budget", []string{"--max-watchers", "-1"}, "--max-watchers must not be negative"},
		{"a negative replays budget", []string{"--max-replays", "-1"}, "--max-replays must not be negative"},
		{"a listen address without a port", []string{"--listen", "localhost"}, "--listen"},
		{"a listen port past 65535", []string{"--listen", "127.0.0.1:99999"}, "--listen"},
		{"a frame rate of 0", []string{"--fps", "0"}, "--fps"},
		{"an idle timeout of 1ns", []string{"--idle-timeout", "1ns"}, "--idle-timeout must be at least 1s"},
		{"a balancer that is a name", []string{"--proxy-protocol-from", "10.0.0.0/8,haproxy"}, `--proxy-protocol-from "haproxy" is not an IP address`},
		{"a balancer range with host bits", []string{"--proxy-protocol-from", "10.0.0.5/24"}, "write 10.0.0.0/24 for the range"},
		{"a metrics address without a port", []string{"--metrics", "127.0.0.1"}, "--metrics"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			_, err := parse(append(tc.args, "--data", data), &bytes.Buffer{}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming %s", err, tc.want)
			}
			if code := run(append(tc.args, "--data", data)); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if _, err := os.Stat(data); err == nil {
				t.Error("the data dir was made for a configuration that was refused")
			}
		})
	}
	if _, err := parse([]string{"--pprof", "127.0.0.1:6060"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Errorf("a loopback --pprof was refused: %v", err)
	}
}

func TestTheWebPagesAreOffUnlessAnAddressIsSet(t *testing.T) {
	c, err := parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil || c.HTTP != "" {
		t.Fatalf("by default: HTTP %q, err %v; want off", c.HTTP, err)
	}
	t.Setenv("GROTTO_HTTP", ":8080")
	if c, err := parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.HTTP != ":8080" {
		t.Errorf("GROTTO_HTTP=:8080: HTTP %q, err %v", c.HTTP, err)
	}
	t.Setenv("GROTTO_HTTP", "nowhere")
	if _, err := parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "GROTTO_HTTP (--http)") {
		t.Errorf("GROTTO_HTTP=nowhere: %v, want an error naming GROTTO_HTTP (--http)", err)
	}
}

func TestAnAddressWithoutAValidPortIsABadConfiguration(t *testing.T) {
	for _, args := range [][]string{
		{"--listen", "127.0.0.1:"}, {"--listen", ":99999"}, {"--listen", ":abc"},
		{"--pprof", "127.0.0.1:"}, {"--pprof", "127.0.0.1:99999"},
		{"--http", "localhost"}, {"--http", ":99999"},
	} {
		_, err := parse(append(args, "--data", t.TempDir()), &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%s %s: %v, want an error naming %s", args[0], args[1], err, args[0])
		}
	}
}

func TestAFlagWinsOverAVariableThatDoesNotParse(t *testing.T) {
	t.Setenv("GROTTO_FPS", "abc")
	t.Setenv("GROTTO_IDLE_TIMEOUT", "soon")
	c, err := parse([]string{"--fps", "30", "--idle-timeout", "5m", "--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil || c.FPS != 30 || c.Limits.IdleTimeout != 5*time.Minute {
		t.Errorf("GROTTO_FPS=abc --fps 30: %v, fps %d, idle %v; want the flags' values", err, c.FPS, c.Limits.IdleTimeout)
	}
}

func TestAnErrorInAVariableNamesTheVariable(t *testing.T) {
	for _, tc := range []struct{ env, value, want string }{
		{"GROTTO_FPS", "abc", "GROTTO_FPS (--fps)"},
		{"GROTTO_IDLE_TIMEOUT", "soon", "GROTTO_IDLE_TIMEOUT (--idle-timeout)"},
		{"GROTTO_MAX_SESSIONS", "-3", "GROTTO_MAX_SESSIONS (--max-sessions) must be at least 1, not -3"},
		{"GROTTO_FPS", "500", "GROTTO_FPS (--fps) must be between 1 and 120"},
		{"GROTTO_LISTEN", ":abc", "GROTTO_LISTEN (--listen)"},
		{"GROTTO_PPROF", "0.0.0.0:6060", "GROTTO_PPROF (--pprof)"},
		{"GROTTO_PROXY_PROTOCOL_FROM", "10.0.0.0/40", "GROTTO_PROXY_PROTOCOL_FROM (--proxy-protocol-from)"},
		{"GROTTO_LEASE_TTL", "soon", "GROTTO_LEASE_TTL (--lease-ttl) \"soon\" is not a duration"},
		{"GROTTO_LEASE_TTL", "1s", "GROTTO_LEASE_TTL (--lease-ttl) must be at least 3s, not 1s"},
		{"GROTTO_DRAIN", "-5s", "GROTTO_DRAIN (--drain) must be between 0 and 10m0s, not -5s"},
		{"GROTTO_DRAIN", "2562047h", "GROTTO_DRAIN (--drain) must be between 0 and 10m0s, not 2562047h0m0s"},
		{"GROTTO_LOG_FORMAT", "xml", "GROTTO_LOG_FORMAT (--log-format) must be text or json, not \"xml\""},
		{"GROTTO_NODE", "node a", "GROTTO_NODE (--node) \"node a\" must be printable, without spaces"},
		{"GROTTO_METRICS", "localhost:99999", "GROTTO_METRICS (--metrics)"},
	} {
		t.Run(tc.env+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			_, err := parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s=%s: %v, want %q", tc.env, tc.value, err, tc.want)
			}
		})
	}
	// The same value from the flag names the flag alone.
	_, err := parse([]string{"--max-sessions", "-3", "--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.HasPrefix(err.Error(), "--max-sessions must") {
		t.Errorf("--max-sessions -3: %v", err)
	}
}

func TestAServerThatCannotStartDoesNotClaimItSavedGames(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	var logs bytes.Buffer
	cfg := server.Config{Listen: taken.Addr().String(), DataDir: t.TempDir(), Logger: log.New(&logs)}
	if _, err := start(cfg); err == nil {
		t.Fatal("a server started on a port in use")
	}
	if strings.Contains(logs.String(), "stopped") || strings.Contains(logs.String(), "saved") {
		t.Errorf("a server that never started logged:\n%s", logs.String())
	}
	db, _, err := open(cfg, 100*time.Millisecond)
	if err != nil {
		t.Fatalf("the database was left open: %v", err)
	}
	db.Close()
}

func TestTheNodeAndLeaseTTLComeFromFlagsOrVariablesWithTheHostNameAnd15sByDefault(t *testing.T) {
	c, err := parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if host, _ := os.Hostname(); c.Node != host || c.LeaseTTL != 15*time.Second {
		t.Errorf("defaults: node %q, lease TTL %v; want the host name %q and 15s", c.Node, c.LeaseTTL, host)
	}
	t.Setenv("GROTTO_NODE", "node-a")
	t.Setenv("GROTTO_LEASE_TTL", "30s")
	if c, err = parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.Node != "node-a" || c.LeaseTTL != 30*time.Second {
		t.Errorf("from variables: node %q, lease TTL %v (%v)", c.Node, c.LeaseTTL, err)
	}
	if c, err = parse([]string{"--data", t.TempDir(), "--node", "node-b", "--lease-ttl", "3s"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.Node != "node-b" || c.LeaseTTL != 3*time.Second {
		t.Errorf("from flags: node %q, lease TTL %v (%v)", c.Node, c.LeaseTTL, err)
	}
	if _, err = parse([]string{"--data", t.TempDir(), "--lease-ttl", "2s"}, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || !strings.HasPrefix(err.Error(), "--lease-ttl must be at least 3s") {
		t.Errorf("--lease-ttl 2s: %v", err)
	}
}

func TestTheHostKeyAndTrustedBalancersComeFromFlagsOrVariables(t *testing.T) {
	t.Setenv("GROTTO_HOST_KEY", "/etc/grotto/host_key")
	t.Setenv("GROTTO_PROXY_PROTOCOL_FROM", "10.0.0.0/24, 10.0.1.5")
	c, err := parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if c.HostKey != "/etc/grotto/host_key" || strings.Join(c.ProxyProtocolFrom, "|") != "10.0.0.0/24| 10.0.1.5" {
		t.Errorf("from variables: host key %q, balancers %q", c.HostKey, c.ProxyProtocolFrom)
	}
	c, err = parse([]string{"--data", t.TempDir(), "--host-key", "shared_key", "--proxy-protocol-from", "::1"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(c.HostKey) || filepath.Base(c.HostKey) != "shared_key" || len(c.ProxyProtocolFrom) != 1 || c.ProxyProtocolFrom[0] != "::1" {
		t.Errorf("from flags: host key %q (want it absolute), balancers %q", c.HostKey, c.ProxyProtocolFrom)
	}
	os.Unsetenv("GROTTO_HOST_KEY")
	os.Unsetenv("GROTTO_PROXY_PROTOCOL_FROM")
	c, _ = parse([]string{"--data", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{})
	if c.HostKey != "" || c.ProxyProtocolFrom != nil || c.HostKeyPath() != filepath.Join(c.DataDir, server.HostKeyFile) {
		t.Errorf("defaults: host key %q (path %s), balancers %q; want the data dir's key and PROXY protocol off", c.HostKey, c.HostKeyPath(), c.ProxyProtocolFrom)
	}
}

func TestAHostKeyFileThatIsNotAPrivateKeyStopsTheStartNamingIt(t *testing.T) {
	dir := t.TempDir()
	pub := filepath.Join(dir, "host_ed25519.pub")
	if err := os.WriteFile(pub, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB5bjRI6JoGLS/Ahmf5BeoLFZSOYoca8CmLmB+mjT0gp host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	cfg := server.Config{Listen: "127.0.0.1:0", DataDir: filepath.Join(dir, "data"), HostKey: pub, Logger: log.New(&logs)}
	_, err := start(cfg)
	if err == nil || !strings.Contains(err.Error(), pub) || !strings.Contains(err.Error(), "is a public key") {
		t.Fatalf("start with a .pub as --host-key: %v, want an error naming the file", err)
	}
	if code := runOn([]string{"--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--host-key", pub}, noSockets); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
}

// TestTheNodeChannelIsCheckedBeforeAnythingIsOpened: a --cluster-listen
// without a PostgreSQL store, an address every node would dial as
// 0.0.0.0, or a node name with "/" is one line naming the flag (found by
// a tester: a bbolt file was created before the refusal).
func TestTheNodeChannelIsCheckedBeforeAnythingIsOpened(t *testing.T) {
	pg := "postgres://grotto@db.example.org/grotto"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", "/tmp/x.db", "--cluster-listen", "10.0.0.5:23235"}, "--cluster-listen needs a PostgreSQL --store"},
		{[]string{"--cluster-listen", "10.0.0.5:23235"}, "--cluster-listen needs a PostgreSQL --store"},
		{[]string{"--store", pg, "--cluster-listen", ":23235"}, "--cluster-advertise is needed"},
		{[]string{"--store", pg, "--cluster-listen", ":23235", "--cluster-advertise", "0.0.0.0:23235"}, "--cluster-advertise \"0.0.0.0:23235\" must be host:port naming the host"},
		{[]string{"--store", pg, "--cluster-advertise", "10.0.0.5:23235"}, "--cluster-advertise needs --cluster-listen"},
		{[]string{"--node", "a/b"}, "--node \"a/b\" must be printable, without spaces or /"},
	} {
		dir := t.TempDir()
		_, err := parse(append([]string{"--data", dir}, c.args...), &bytes.Buffer{}, &bytes.Buffer{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: %v; want %q", c.args, err, c.want)
		}
	}
	if c, err := parse([]string{"--data", t.TempDir(), "--store", pg, "--cluster-listen", "10.0.0.5:23235"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil || c.ClusterListen != "10.0.0.5:23235" {
		t.Errorf("a private channel address: %v", err)
	}
}

// On a one-CPU host the runtime would run one P, and a journal fsync would
// stop every session; grotto runs two, unless the host set GOMAXPROCS.
func TestOnOneCPUGrottoRunsTwoPsUnlessTheHostSaysOtherwise(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "1")
	runtime.GOMAXPROCS(1)
	procsFloor()
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Errorf("GOMAXPROCS=1 set by the host: grotto runs %d Ps", n)
	}
	os.Unsetenv("GOMAXPROCS") // t.Setenv puts it back
	procsFloor()
	if n := runtime.GOMAXPROCS(0); n != minProcs {
		t.Errorf("one CPU, GOMAXPROCS unset: grotto runs %d Ps, want %d", n, minProcs)
	}
}

// A log shipper reads --log-format json: one JSON object a line, with the
// fields the text lines carry.
func TestTheJSONLogHoldsTheTextLogsFields(t *testing.T) {
	var text, js bytes.Buffer
	for _, l := range []struct {
		w      *bytes.Buffer
		format string
	}{{&text, "text"}, {&js, "json"}} {
		newLogger(l.w, l.format).Info("backup: copied the database while serving", "bytes", 3481600, "took", "40ms")
	}
	var line map[string]any
	if err := json.Unmarshal(js.Bytes(), &line); err != nil {
		t.Fatalf("the json log line does not parse: %v\n%s", err, js.String())
	}
	if line["level"] != "info" || line["msg"] != "backup: copied the database while serving" || line["bytes"] != float64(3481600) || line["took"] != "40ms" {
		t.Errorf("json line %v lacks a field", line)
	}
	if _, err := time.Parse(time.RFC3339, fmt.Sprint(line["time"])); err != nil {
		t.Errorf("json time %v is not RFC 3339", line["time"])
	}
	if !strings.Contains(text.String(), "bytes=3481600") || strings.Contains(text.String(), "{") {
		t.Errorf("the text line changed: %q", text.String())
	}
}

func TestVersionSaysWhichBuildThisIs(t *testing.T) {
	var out strings.Builder
	writeVersion(&out)
	if s := out.String(); !strings.HasPrefix(s, "grotto ") || !strings.Contains(s, "PostgreSQL schema ") || !strings.Contains(s, "rules ") {
		t.Errorf("grotto version says %q", s)
	}
}
