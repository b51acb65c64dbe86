// Command grotto serves the grotto roguelike over SSH.
//
//	grotto [serve] [--listen :23234] [--data ./grotto-data] [--admin-keys FILE]
//	              [--host-key FILE] [--proxy-protocol-from CIDR[,CIDR...]]
//	              [--node NAME] [--lease-ttl 15s] [--metrics 127.0.0.1:2112]
//	grotto compact [--data ./grotto-data]   (offline: shrink the bbolt database)
//	grotto copy-store --from FILE --to URL  (offline: copy bbolt into PostgreSQL)
//
// Every flag can also be set by an environment variable (GROTTO_LISTEN,
// GROTTO_DATA, GROTTO_ADMIN_KEYS, …); a flag wins over its variable, even
// one whose value does not parse. Errors name the variable when the value
// came from it. Sockets systemd passes (socket activation, sockets.go) are
// served in place of binding their flags' addresses.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof" // served only with --pprof, on loopback
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/server"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/postgres"
)

// shutdownTimeout bounds a graceful stop: save everything and exit within it.
const shutdownTimeout = 8 * time.Second

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return def
}

// parse reads the configuration from env and args (without the program
// name): defaults, then variables, then flags, then Validate. --help prints
// the usage on stdout (so `grotto --help | less` works) and returns
// flag.ErrHelp; a bad flag prints it on stderr. An error about a value
// that came from a variable names the variable and its flag.
func parse(args []string, stdout, stderr io.Writer) (server.Config, error) {
	if len(args) > 0 && args[0] == "serve" {
		args = args[1:]
	}
	fs := flag.NewFlagSet("grotto", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c server.Config
	// Each flag's default is its variable's value, if set; a variable
	// that does not parse is an error only when no flag overrides it (a
	// flag wins over its variable), reported after the flags are parsed.
	envOf := map[string]string{} // flag name → its variable
	type envError struct {
		flag string
		err  error
	}
	var envErrs []envError
	stringFlag := func(p *string, name, env, def, usage string) {
		envOf[name] = env
		fs.StringVar(p, name, envOr(env, def), usage+" (env "+env+")")
	}
	durationFlag := func(p *time.Duration, name, env, usage string) {
		envOf[name] = env
		if v, ok := os.LookupEnv(env); ok {
			if d, err := time.ParseDuration(v); err != nil {
				envErrs = append(envErrs, envError{name, fmt.Errorf("%s (--%s) %q is not a duration, e.g. 30m or 90s", env, name, v)})
			} else {
				*p = d
			}
		}
		fs.DurationVar(p, name, *p, usage+" (env "+env+")")
	}
	intFlag := func(p *int, name, env, usage string) {
		envOf[name] = env
		if v, ok := os.LookupEnv(env); ok {
			if n, err := strconv.Atoi(v); err != nil {
				envErrs = append(envErrs, envError{name, fmt.Errorf("%s (--%s) %q is not a whole number", env, name, v)})
			} else {
				*p = n
			}
		}
		fs.IntVar(p, name, *p, usage+" (env "+env+")")
	}
	stringFlag(&c.Listen, "listen", "GROTTO_LISTEN", ":23234", "address to serve SSH on")
	stringFlag(&c.DataDir, "data", "GROTTO_DATA", "./grotto-data", "directory for the database and the host key")
	stringFlag(&c.Store, "store", "GROTTO_STORE", "", "where games are kept: empty for grotto.db in the data dir, a bbolt file's path, or a postgres:// URL shared by many nodes (PG* variables fill in what it leaves out)")
	stringFlag(&c.AdminKeys, "admin-keys", "GROTTO_ADMIN_KEYS", "", "authorized_keys file listing admins' keys")
	stringFlag(&c.BannedKeys, "banned-keys", "GROTTO_BANNED_KEYS", "", "authorized_keys file of keys refused at login, re-read on SIGHUP (a missing file bans nobody)")
	stringFlag(&c.HostKey, "host-key", "GROTTO_HOST_KEY", "", "the host's private key file, created if missing; nodes behind one address share one (default DATA/host_ed25519)")
	stringFlag(&c.Node, "node", "GROTTO_NODE", server.DefaultNode(), "this node's name among the nodes sharing a --store: it holds its players' games, and a player whose key plays here is told so on another node")
	c.LeaseTTL = server.DefaultLeaseTTL
	durationFlag(&c.LeaseTTL, "lease-ttl", "GROTTO_LEASE_TTL", "how long this node's claim on a player's game lasts unrenewed (renewed every third of it): a stopped node's players can play on another node after at most this long; at least 3s")
	stringFlag(&c.ClusterListen, "cluster-listen", "GROTTO_CLUSTER_LISTEN", "", "with a postgres:// --store: where this node's channel to the other nodes listens (host:port on a private address only they reach; mutual TLS from a secret in the database), for take-over and watching across nodes; off when empty")
	stringFlag(&c.ClusterAdvertise, "cluster-advertise", "GROTTO_CLUSTER_ADVERTISE", "", "the address other nodes dial for this node's channel, when --cluster-listen listens on every address")
	var proxyFrom string
	stringFlag(&proxyFrom, "proxy-protocol-from", "GROTTO_PROXY_PROTOCOL_FROM", "", "load balancers (CIDR ranges or addresses, comma-separated) whose connections must start with a PROXY header (v2 or v1); off when empty")
	durationFlag(&c.Drain, "drain", "GROTTO_DRAIN", "on SIGTERM, keep serving this long while /readyz (on --metrics and --http) says 503, so a balancer sends new players to other nodes first (at least two of its check intervals); a second SIGTERM ends it; 0 for none")
	c.Limits = server.DefaultLimits()
	durationFlag(&c.Limits.IdleTimeout, "idle-timeout", "GROTTO_IDLE_TIMEOUT", "end a session after this long without a key (a watcher: without a move of the game watched), saving the game; 0 for never, else at least 1s")
	intFlag(&c.Limits.MaxSessions, "max-sessions", "GROTTO_MAX_SESSIONS", "most game sessions at once (commands such as who do not count)")
	intFlag(&c.Limits.MaxWatchers, "max-watchers", "GROTTO_MAX_WATCHERS", "most watch pages open at once in browsers, each about 0.6 MB of memory at 80x24 and at most 1.5 MB whatever size it claims; past it a page is told why and refused; 0 for as many as --max-sessions")
	intFlag(&c.Limits.MaxReplays, "max-replays", "GROTTO_MAX_REPLAYS", "most replay pages open at once in browsers, apart from --max-watchers: each runs its own replay, 10 to 15 times a watcher's CPU; past it a page is told why and refused; 0 for 16 per core")
	intFlag(&c.Limits.ConnPer10s, "conn-rate", "GROTTO_CONN_RATE", "new sessions one IP address may open per 10 seconds")
	intFlag(&c.Limits.InputBytesPerSec, "input-rate", "GROTTO_INPUT_RATE", "bytes per second one session may type or paste")
	intFlag(&c.Limits.MaxConnsPerAddr, "max-conns-per-addr", "GROTTO_MAX_CONNS_PER_ADDR", "most connections one IP address (IPv6: one /64) may hold at once; 0 for no cap")
	durationFlag(&c.Limits.SessionOpenTimeout, "session-open-timeout", "GROTTO_SESSION_OPEN_TIMEOUT", "close a connection that starts no session this long after its handshake or its last session; 0 for never")
	stringFlag(&c.HTTP, "http", "GROTTO_HTTP", "", "serve the web pages (top scores, who is playing, live games in the browser) on this address, e.g. :8080; off when empty")
	intFlag(&c.Limits.MaxHTTPConns, "http-max-conns", "GROTTO_HTTP_MAX_CONNS", "most connections the web pages may hold at once, whatever their address; 0 for half of what the open-file limit leaves after 256 (at most 10000), the other half kept for SSH")
	stringFlag(&c.HTTPURL, "http-url", "GROTTO_HTTP_URL", "", "the base URL players reach the web pages at, e.g. https://play.example.org; the links of the web command (ssh host web) begin with it (default http:// and the --http address)")
	var httpProxies string
	stringFlag(&httpProxies, "http-trusted-proxy", "GROTTO_HTTP_TRUSTED_PROXY", "", "HTTP reverse proxies in front of --http (CIDR ranges or addresses, comma-separated) whose X-Forwarded-For names the browser for the per-address limits; anyone else's header is ignored")
	stringFlag(&c.PublicSSH, "public-ssh", "GROTTO_PUBLIC_SSH", "", "the host:port players reach SSH at (the balancer's or the port mapping's), e.g. play.example.org:2222: every hint of what to type names it (default <host> and the --listen port)")
	stringFlag(&c.EventsWebhook, "events-webhook", "GROTTO_EVENTS_WEBHOOK", "", "POST every event of this node's games (a game begun, a new depth, a level-up, a notable kill, an end; docs/events.md) to this URL, in order, retried until taken; off when empty")
	stringFlag(&c.Metrics, "metrics", "GROTTO_METRICS", "", "serve Prometheus metrics at http://ADDR/metrics, e.g. 127.0.0.1:2112; off when empty")
	stringFlag(&c.LogFormat, "log-format", "GROTTO_LOG_FORMAT", "text", "the log's format on stderr: text, or json (one object a line, for log shippers)")
	stringFlag(&c.Pprof, "pprof", "GROTTO_PPROF", "", "serve Go's profiler on this loopback address, e.g. 127.0.0.1:6060")
	c.FPS = server.DefaultFPS
	intFlag(&c.FPS, "fps", "GROTTO_FPS", "most frames per second a session draws (1–120)")
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "grotto serves a roguelike over SSH.\n\nUsage:\n  grotto [serve] [flags]\n  grotto compact [--data DIR]   shrink the bbolt database, offline (see grotto compact --help)\n  grotto copy-store --from FILE --to URL   copy a bbolt database into PostgreSQL (see grotto copy-store --help)\n  grotto backup --out FILE [--data DIR]   copy a running server's bbolt database while players play (see grotto backup --help)\n  grotto version   which build this is: version, revision, Go, schema, rules\n\nFlags:\n")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		fmt.Fprintf(w, "\nPlayers connect with: %s\n", c.SSHCommand(false))
	}
	fs.Usage = func() {} // printed below, on stdout for --help
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
		} else {
			usage(stderr)
		}
		return c, err
	}
	if fs.NArg() > 0 {
		usage(stderr)
		return c, fmt.Errorf("unknown argument %q", fs.Arg(0))
	}
	if proxyFrom != "" {
		c.ProxyProtocolFrom = strings.Split(proxyFrom, ",")
	}
	if httpProxies != "" {
		c.HTTPTrustedProxy = strings.Split(httpProxies, ",")
	}
	onCommandLine := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { onCommandLine[f.Name] = true })
	for _, e := range envErrs {
		if !onCommandLine[e.flag] {
			return c, e.err
		}
	}
	err := c.Validate()
	var bad *server.SettingError
	if errors.As(err, &bad) {
		// Validate names the flag; say so when the value came from the
		// variable instead.
		name := strings.TrimPrefix(bad.Flag, "--")
		if env, ok := envOf[name]; ok && !onCommandLine[name] {
			if _, set := os.LookupEnv(env); set {
				bad.Env = env
			}
		}
	}
	return c, err
}

// lockTimeout is how long grotto waits for the database file's lock before
// giving up (another grotto on the same data dir).
const lockTimeout = 2 * time.Second

// connectTimeout bounds reaching PostgreSQL at start, migrations included.
const connectTimeout = 30 * time.Second

// open loads the game data and opens the store cfg.Store names: by default
// the bbolt file in cfg.DataDir (made if missing), waiting up to wait for
// its lock; PostgreSQL for a postgres:// URL. Errors name what is at fault:
// a database locked by another process (bolt.ErrLocked), a file that is
// not a grotto database (bolt.ErrNotDatabase), a damaged one
// (bolt.ErrDamaged), a PostgreSQL server that cannot be reached
// (postgres.ErrUnreachable, naming host and reason).
func open(cfg server.Config, wait time.Duration) (server.Database, *content.Tables, error) {
	data, err := game.LoadData()
	if err != nil {
		return nil, nil, fmt.Errorf("game data: %w", err)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("data dir: %w", err)
	}
	if server.IsPostgresURL(cfg.Store) {
		ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
		defer cancel()
		db, err := postgres.Open(ctx, cfg.Store)
		if err != nil {
			return nil, nil, err
		}
		return db, data, nil
	}
	path := cfg.Store
	if path == "" {
		path = filepath.Join(cfg.DataDir, server.DBFile)
	}
	db, err := bolt.Open(path, wait)
	if err != nil {
		return nil, nil, err
	}
	return db, data, nil
}

func main() {
	os.Exit(run(os.Args[1:]))
}

// gcPercent is the garbage collector's target unless GOGC is set: a server
// of many small, long-lived sessions trades a little CPU for a third less
// memory per idle session (measured in docs/performance.md).
const gcPercent = 50

// minProcs is the fewest Ps (runtime.GOMAXPROCS) grotto runs with unless
// GOMAXPROCS is set. With one P (the runtime's choice on a one-CPU host or
// container), a goroutine in a blocking system call keeps the P until the
// runtime's sysmon takes it back, after 20 µs to 10 ms (golang/go#18236,
// #29734): every journal fdatasync then stops every session. With two, the
// other sessions run while the disk syncs. Measured with the server pinned
// to one CPU, 1,000 players at 1 key/s: key→frame p99 309, 147 and 141 ms
// with one P, 112 and 101 ms with two (docs/performance.md, "Capacity").
const minProcs = 2

// procsFloor raises GOMAXPROCS to minProcs when the runtime chose fewer and
// the host did not set it.
func procsFloor() {
	if _, set := os.LookupEnv("GOMAXPROCS"); !set && runtime.GOMAXPROCS(0) < minProcs {
		runtime.GOMAXPROCS(minProcs)
	}
}

// newLogger is grotto's log on w in format (--log-format): charm log's
// text lines with an RFC 3339 timestamp, or with "json" one JSON object a
// line holding the same fields (time, level, msg, then the line's own).
func newLogger(w io.Writer, format string) *log.Logger {
	opts := log.Options{ReportTimestamp: true, TimeFormat: time.RFC3339}
	if format == "json" {
		opts.Formatter = log.JSONFormatter
	}
	return log.NewWithOptions(w, opts)
}

// run is grotto with its arguments (without the program name) and returns
// the exit code: 0 after a clean stop or --help, 1 when the server cannot
// start or a game could not be saved, 2 for a bad configuration (sockets
// from systemd included).
func run(args []string) int { return runOn(args, activated) }

// runOn is run serving on the sockets inherited returns (activated, or a
// test's own listeners) in place of binding their flags' addresses.
func runOn(args []string, inherited func() (sockets, error)) int {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	procsFloor()
	if len(args) > 0 && args[0] == "compact" {
		return compact(args[1:], os.Stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "copy-store" {
		return copyStore(args[1:], os.Stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "backup" {
		return backup(args[1:], os.Stdout, os.Stderr)
	}
	if len(args) == 1 && (args[0] == "version" || args[0] == "--version" || args[0] == "-version") {
		writeVersion(os.Stdout)
		return 0
	}
	logger := newLogger(os.Stderr, "text")
	cfg, err := parse(args, os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		logger.Error("bad configuration", "err", err)
		return 2
	}
	logger = newLogger(os.Stderr, cfg.LogFormat)
	cfg.Logger = logger
	socks, err := inherited()
	if err == nil {
		err = socks.check(cfg)
	}
	if err != nil {
		logger.Error("bad configuration", "err", err)
		return 2
	}
	if len(socks) > 0 {
		logger.Info("serving on the sockets systemd passed, not binding their flags' addresses", "sockets", socks.String())
	}
	cfg.Bind = socks.bind
	// One signal handler for the whole process (each Bubble Tea program
	// runs without its own: tea.WithoutSignalHandler), from before the
	// store is opened: a SIGTERM while it opens stops the server as soon as
	// it has started, with its goodbye, instead of killing it mid-open.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Every stop signal, from the same moment: the first ends ctx, a
	// second cuts the drain short (serve), however soon it follows.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	// pprof is bound before the server starts, so it answers as soon as the
	// SSH port does (the fault suite reads its heap right away).
	var pprof net.Listener
	if cfg.Pprof != "" { // on loopback: Validate checked
		if pprof, err = socks.bind(bindPprof, cfg.Pprof); err != nil {
			logger.Error("cannot start: --pprof", "err", err)
			return 1
		}
		defer pprof.Close()
	}
	srv, err := start(cfg)
	if err != nil {
		if errors.Is(err, bolt.ErrDamaged) {
			logger.Error("cannot start: the database file is damaged; restore it from a backup (`bbolt check FILE` lists the damage; grotto compact cannot repair it)", "err", err)
		} else {
			logger.Error("cannot start", "err", err)
		}
		return 1
	}
	if pprof != nil {
		go func() {
			if err := http.Serve(pprof, nil); !errors.Is(err, net.ErrClosed) {
				logger.Warn("pprof", "err", err)
			}
		}()
	}
	return serve(ctx, signals, srv, cfg.Drain, logger)
}

// start opens the game data and the database (open), builds the server on
// them and binds its address. On error nothing is left open.
func start(cfg server.Config) (*server.Server, error) {
	db, data, err := open(cfg, lockTimeout)
	if err != nil {
		return nil, err
	}
	srv, err := server.New(cfg, db, data)
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := srv.Listen(); err != nil {
		srv.Close() // quietly: it served no one, so there is nothing to report saved
		return nil, err
	}
	return srv, nil
}

// serve runs srv until ctx ends (SIGINT or SIGTERM, each also sent on
// signals), re-reading the admins
// and bans on SIGHUP, then shuts it down within drain (--drain) and
// shutdownTimeout. It returns
// the exit code: 0 when every game is saved, 1 otherwise or if the server
// stopped by itself.
func serve(ctx context.Context, signals <-chan os.Signal, srv *server.Server, drain time.Duration, logger *log.Logger) int {
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
wait:
	for {
		select {
		case err := <-served:
			logger.Error("server stopped", "err", err)
			srv.Shutdown(context.Background())
			return 1
		case <-hup: // re-read the admins: rights are checked when used, so every session sees the change at once
			if err := srv.ReloadAdmins(); err != nil {
				logger.Error("SIGHUP: the admin file could not be read; nobody is an admin until it is fixed and reloaded", "err", err)
			}
			if err := srv.ReloadBans(); err != nil { // and the bans: a newly banned key's sessions end
				logger.Error("SIGHUP: the banned-keys file could not be read; the bans before stay in force", "err", err)
			}
		case <-ctx.Done():
			break wait
		}
	}
	// A second SIGINT or SIGTERM cuts the drain short (--drain): signals
	// heard both signals, the first one included.
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		for seen := 0; ; {
			select {
			case <-signals:
				if seen++; seen == 2 {
					srv.CutDrain()
					return
				}
			case <-stopped:
				return
			}
		}
	}()
	sctx, cancel := context.WithTimeout(context.Background(), drain+shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Error("shutdown", "err", err)
		return 1
	}
	<-served
	return 0
}
