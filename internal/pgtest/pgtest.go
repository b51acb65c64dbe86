// Package pgtest starts a real, throw-away PostgreSQL 15 server for tests:
// initdb into a temporary directory, pg_ctl start listening on a unix
// socket in that directory alone (no TCP port, so none can be taken from
// it between tests or restarts), one fresh database per test. No
// mock: the tests of store/postgres and of the binary run against the real
// server the machine's `postgresql` package installs.
//
// One server serves a whole test binary. A package that uses it calls
// [Main] from its TestMain, which stops the server and removes its
// directory after the tests:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// and each test asks for its own database:
//
//	url := pgtest.NewDatabase(t) // postgres://postgres@/tNNN?host=DIR&port=5432&sslmode=disable
//
// initdb refuses to run as root (PostgreSQL docs, 18.2 "Creating a Database
// Cluster"), so as root the binaries run as the `postgres` user through
// `runuser -u postgres --`, in a directory that user owns.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// BinDir is where Debian's postgresql-15 package puts initdb and pg_ctl.
// The environment variable PGTEST_BINDIR overrides it.
const BinDir = "/usr/lib/postgresql/15/bin"

// ErrNoPostgres is returned (wrapped, naming the path) by [Start] when
// initdb or pg_ctl is missing.
var ErrNoPostgres = errors.New("PostgreSQL 15 is not installed (apt-get install -y postgresql, or run .ci/run)")

// Server is one running PostgreSQL cluster in a temporary directory,
// reachable on its unix socket in that directory as the trusted superuser
// `postgres`.
type Server struct {
	// Dir holds the cluster (Dir/data), its log (Dir/log) and its unix
	// socket (Dir/.s.PGSQL.Port), the only place the server listens.
	Dir string
	// Port is the number in the socket's name (SocketPort); no TCP port
	// is bound.
	Port int

	bin  string
	dbs  atomic.Int64 // databases made, for their names
	stop sync.Once
}

// binDir returns where the PostgreSQL binaries are.
func binDir() string {
	if d := os.Getenv("PGTEST_BINDIR"); d != "" {
		return d
	}
	return BinDir
}

// SocketPort is the port number of every server's socket name: each
// server's socket is in its own directory, so they never collide.
const SocketPort = 5432

// Start initialises a new cluster in a temporary directory and starts it
// on a unix socket there, waiting until it accepts connections (pg_ctl
// -w). Stop it with [Server.Stop]. Errors: [ErrNoPostgres] when the
// binaries are missing; otherwise the failing command with its output.
func Start() (*Server, error) {
	bin := binDir()
	for _, b := range []string{"initdb", "pg_ctl"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrNoPostgres, filepath.Join(bin, b), err)
		}
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		if err := chownToPostgres(dir); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	s := &Server{Dir: dir, Port: SocketPort, bin: bin}
	if out, err := s.command("initdb", "-D", s.data(), "-U", "postgres", "--auth=trust",
		"--encoding=UTF8", "--locale=C", "--no-instructions").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	if err := s.Restart(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.watch()
	return s, nil
}

// watch starts a shell that waits for this process to end, however it
// ends (a panic, go test's timeout, kill -9), then stops the server and
// removes its directory, so no test run leaves a PostgreSQL behind.
func (s *Server) watch() {
	stop := s.command("pg_ctl", "stop", "-m", "immediate", "-D", s.data())
	script := fmt.Sprintf(`while kill -0 %d 2>/dev/null; do sleep 1; done; "$@" >/dev/null 2>&1; rm -rf %q`, os.Getpid(), s.Dir)
	cmd := exec.Command("sh", append([]string{"-c", script, "pgtest-watch"}, stop.Args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // not killed with the test's process group
	if cmd.Start() == nil {
		go cmd.Wait()
	}
}

// Restart starts a stopped server again on the same socket and directory
// (a test of a database that goes away and comes back calls [Server.Kill]
// then Restart), waiting until it accepts connections.
func (s *Server) Restart() error {
	// listen_addresses='': no TCP at all (pg_ctl runs postgres through
	// the shell, which reads the quotes).
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses='' -c max_connections=200 -c shared_buffers=32MB", s.Port, s.Dir)
	out, err := s.command("pg_ctl", "start", "-w", "-t", "60", "-D", s.data(), "-l", filepath.Join(s.Dir, "log"), "-o", opts).CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(s.Dir, "log"))
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return nil
}

// Kill stops the server at once, as a crash would (pg_ctl stop -m
// immediate: no checkpoint; the next start recovers from the WAL).
func (s *Server) Kill() error {
	out, err := s.command("pg_ctl", "stop", "-w", "-m", "immediate", "-D", s.data()).CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Stop stops the server and removes its directory. Calling it again does
// nothing.
func (s *Server) Stop() error {
	var err error
	s.stop.Do(func() {
		err = s.Kill()
		if rmErr := os.RemoveAll(s.Dir); err == nil {
			err = rmErr
		}
	})
	return err
}

// URL returns the postgres:// URL of database db on the server, as the
// superuser, over its unix socket (host=Dir), without TLS.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@/%s?host=%s&port=%d&sslmode=disable", db, url.QueryEscape(s.Dir), s.Port)
}

// CreateDatabase creates a new, empty database and returns its URL. Its
// name is t1, t2, … in the order asked.
func (s *Server) CreateDatabase(ctx context.Context) (string, error) {
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("t%d", s.dbs.Add(1))
	// WAL_LOG copies template1 through the WAL instead of a checkpoint
	// (PostgreSQL 15 docs, CREATE DATABASE): much faster for tiny databases.
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" STRATEGY = WAL_LOG"); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return s.URL(name), nil
}

func (s *Server) data() string { return filepath.Join(s.Dir, "data") }

// command runs a PostgreSQL binary, as the postgres user when we are root.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	path := filepath.Join(s.bin, name)
	if os.Geteuid() == 0 {
		return exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// chownToPostgres gives dir to the postgres user, for initdb run as it.
func chownToPostgres(dir string) error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("%w: no postgres user to run initdb as (%v)", ErrNoPostgres, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(dir, uid, gid)
}

// The server shared by one test binary: started by the first NewDatabase,
// stopped by Main.
var (
	mainCalled atomic.Bool
	sharedOnce sync.Once
	shared     *Server
	sharedErr  error
)

// Main runs the tests of m and then stops the shared server, if a test
// started one, removing its directory. Call it from TestMain.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run is [Main] for a TestMain with cleanup of its own: it runs the tests
// of m, stops the shared server if a test started one, and returns m.Run's
// exit code for the caller to pass to os.Exit.
func Run(m *testing.M) int {
	mainCalled.Store(true)
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: stopping PostgreSQL: %v\n", err)
		}
	}
	return code
}

// Shared returns the test binary's server, starting it on first use. The
// test fails when PostgreSQL cannot start (a missing installation says how
// to install it), unless it runs under -short, where it is skipped.
func Shared(t testing.TB) *Server {
	t.Helper()
	if !mainCalled.Load() {
		t.Fatal("pgtest: call pgtest.Main(m) from this package's TestMain, so the server is stopped after the tests")
	}
	sharedOnce.Do(func() { shared, sharedErr = Start() })
	if sharedErr != nil {
		if testing.Short() {
			t.Skipf("skipped under -short: %v", sharedErr)
		}
		t.Fatalf("pgtest: cannot start PostgreSQL: %v", sharedErr)
	}
	return shared
}

// Own starts a server for tb alone, one it may [Server.Kill] and
// [Server.Restart] without disturbing other tests, and stops it at tb's
// cleanup. Like [Shared] it fails tb when PostgreSQL cannot start, or
// skips it under -short.
func Own(tb testing.TB) *Server {
	tb.Helper()
	s, err := Start()
	if err != nil {
		if testing.Short() {
			tb.Skipf("skipped under -short: %v", err)
		}
		tb.Fatalf("pgtest: cannot start PostgreSQL: %v", err)
	}
	tb.Cleanup(func() { s.Stop() })
	return s
}

// NewDatabase returns the URL of a new, empty database on the shared
// server (see [Shared]), for this test alone.
func NewDatabase(t testing.TB) string {
	t.Helper()
	s := Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := s.CreateDatabase(ctx)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	return url
}
