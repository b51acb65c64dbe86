// The host's settings: one Config, its defaults and its Validate.

package server

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/server/guard"
)

// Config is what a host sets. cmd/grotto fills it from defaults, then the
// environment, then flags, and calls Validate; New fills the zero fields
// that have a default (withDefaults) and validates again, so a test may set
// only what it needs.
type Config struct {
	Listen    string // TCP address, host:port with a port from 1 to 65535 (0, any free port, for tests), e.g. ":23234"
	DataDir   string // holds the database (grotto.db) and the host key (host_ed25519); Validate makes it absolute
	AdminKeys string // authorized_keys file naming admins; "" for none; Validate makes it absolute
	// BannedKeys is an authorized_keys file of keys refused at login
	// ("" for none), re-read by ReloadBans (SIGHUP); a missing file bans
	// nobody. Validate makes it absolute.
	BannedKeys string
	// Clock is the server's one clock, which says the daily's day (the
	// UTC date) to the lobby, the daily and the replays; nil means
	// time.Now. Tests set it to cross midnight.
	Clock func() time.Time
	// Store is where games are kept: "" for the bbolt file grotto.db in
	// DataDir; another path for a bbolt file there (Validate makes it
	// absolute); a postgres:// or postgresql:// URL for PostgreSQL
	// (IsPostgresURL), shared by every node that names it.
	Store string
	// HostKey is the host's private key file (see keys.LoadOrCreateHostKey):
	// "" means HostKeyFile in DataDir. Nodes behind one address share one
	// file so that clients see one host key. Validate makes it absolute.
	HostKey string
	// ProxyProtocolFrom lists the load balancers trusted to send a PROXY
	// protocol header (v2 or v1), each a CIDR range ("10.0.0.0/24") or one
	// address ("10.0.0.5", "fd00::5"): a connection from one of them must
	// start with a header, whose source address grotto then uses as the
	// client's; a connection from anywhere else that starts with a header
	// is refused. Empty: PROXY protocol off (server/guard).
	ProxyProtocolFrom []string
	// Node names this server among the nodes sharing one store: the
	// holder of a key's lease (store.Leases), shown to a player whose key
	// plays here when they connect to another node. "" means the host
	// name (os.Hostname). At most MaxNodeName bytes, printable, no spaces,
	// no "/".
	Node string
	// LeaseTTL is how long a node's claim on a key's game lasts without a
	// renewal (renewed every third of it): a node that stops lets another
	// node resume its players' games after at most this long. At least
	// MinLeaseTTL; 0 means DefaultLeaseTTL.
	LeaseTTL time.Duration
	// ClusterListen is where this node's channel to the other nodes sharing
	// its PostgreSQL store listens (server/cluster: mutual TLS whose trust
	// comes from a secret in the database), host:port. It must be an
	// address only the other nodes reach (a private network, or loopback
	// for nodes on one machine), never the public one. "" means none: a
	// key playing on another node can then not be taken over or watched
	// from here. Only with a PostgreSQL store.
	ClusterListen string
	// ClusterAdvertise is the channel address the other nodes dial
	// (host:port): "" means ClusterListen, which must then name a host,
	// not every address (":23235", "0.0.0.0:23235").
	ClusterAdvertise string
	// Drain is how long Shutdown keeps serving after it has begun to say
	// "not ready" on /readyz (health.go), so that a balancer probing it
	// sends new players to other nodes before this one refuses them: at
	// least two of the balancer's check intervals. 0 stops refusing at
	// once, as a lone server should. Negative or past MaxDrain is a bad
	// configuration.
	Drain time.Duration
	// LogFormat is how cmd/grotto writes its log: "text" (charm log's
	// lines, the default when "") or "json" (one object a line with the
	// same fields, for log shippers). The server itself only checks it.
	LogFormat string
	// Logger receives the server's log; nil means stderr.
	Logger *log.Logger
	// NewSeed, if set, seeds every new game (tests use it); nil means random.
	NewSeed func() uint64
	// Limits are the abuse limits; each zero field that has a default gets
	// it (see Limits.withDefaults).
	Limits Limits
	// FPS is the most frames a session draws per second, 1 to 120 (Bubble
	// Tea's renderer ticks at this rate even when idle); 0 means DefaultFPS.
	FPS int
	// NoJournal saves games only on level changes, on leaving and every
	// 100 turns instead of making every turn durable (see tui.Player).
	NoJournal bool
	// Pprof is the address of Go's profiler, served by cmd/grotto, not by
	// the server; "" for none. It must be on loopback (127.0.0.1, ::1 or
	// localhost): the profiler shows memory and must not face players.
	Pprof string
	// HTTP is the address of the web pages (server/web): the top scores,
	// who is playing, and live games drawn in the browser; host:port with
	// a port from 1 to 65535 (0, any free port, for tests). "" for none.
	HTTP string
	// HTTPURL is the base URL players reach the web pages at, e.g.
	// https://play.example.org (behind a proxy that terminates TLS): the
	// links `ssh host web` prints begin with it, and session cookies are
	// Secure when it is https. "" means http:// and the --http address.
	HTTPURL string
	// HTTPTrustedProxy lists the HTTP reverse proxies in front of the web
	// pages (CIDR ranges or addresses, as ProxyProtocolFrom): a request
	// from one of them is counted under the per-address limits as the
	// client its X-Forwarded-For names (the rightmost address that is not
	// itself a listed proxy); anyone else's header is ignored. Empty: every
	// request is its TCP peer's. Only with HTTP.
	HTTPTrustedProxy []string
	// PublicSSH is how players reach the SSH server, host:port, e.g.
	// play.example.org:2222 (the balancer's or the port mapping's address,
	// not Listen's): every hint that tells a player what to type names it
	// (SSHCommand). "" means "<host>" and Listen's port.
	PublicSSH string
	// Metrics is the address to serve Prometheus metrics on, at /metrics
	// (server/metrics; its own HTTP server, started and stopped with the
	// server); "" for none. host:port with a port from 1 to 65535 (0, any
	// free port, for tests). Metrics name no player, but say how busy the
	// server is: keep it on loopback, or where only the host's Prometheus
	// reaches.
	Metrics string
	// EventsWebhook is a URL (http or https) every event of this node's
	// games is POSTed to as it happens, one JSON line each, in order,
	// retried until taken (server/events.Webhook; docs/events.md); "" for
	// none. Only the node a game is played on posts its events.
	EventsWebhook string
	// Bind, if set, opens each address the server listens on in place of
	// net.Listen("tcp", addr): name says which (BindSSH for Listen,
	// BindHTTP, BindMetrics, BindNode for ClusterListen) and addr is that
	// field's value. cmd/grotto passes the sockets systemd hands it
	// through it (socket activation, docs/hosting.md); tests pass
	// listeners they keep. nil means net.Listen. The server closes what
	// it returns at Shutdown.
	Bind func(name, addr string) (net.Listener, error)
}

// DefaultFPS is the frame rate of a session: a key is answered within one
// frame (33 ms), and 2,000 idle sessions tick half as often as at Bubble
// Tea's default 60.
const DefaultFPS = 30

// HostKeyPath is the host key file the server uses: HostKey, or
// HostKeyFile in DataDir when HostKey is "".
func (c Config) HostKeyPath() string {
	if c.HostKey != "" {
		return c.HostKey
	}
	return filepath.Join(c.DataDir, HostKeyFile)
}

// MaxDrain is the longest Config.Drain: a balancer learns a node is not
// ready within seconds, and a longer drain only delays a restart.
const MaxDrain = 10 * time.Minute

// DefaultLeaseTTL is Config.LeaseTTL's default: a stopped node's players
// wait at most this long to play on another node.
const DefaultLeaseTTL = 15 * time.Second

// MinLeaseTTL is the shortest Config.LeaseTTL: renewals every third of it
// (one second) must be able to reach the database in time.
const MinLeaseTTL = 3 * time.Second

// MaxNodeName is the longest Config.Node, in bytes.
const MaxNodeName = 64

// DefaultNode returns the default node name: the host name, or "grotto"
// when it cannot be read.
func DefaultNode() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		if len(h) > MaxNodeName {
			h = h[:MaxNodeName]
		}
		return h
	}
	return "grotto"
}

// MaxFPS is the highest frame rate a host may set.
const MaxFPS = 120

// IsPostgresURL says whether store (a Config.Store) names a PostgreSQL
// database: a postgres:// or postgresql:// URL (PostgreSQL docs, 34.1.1
// "Connection Strings").
func IsPostgresURL(store string) bool {
	return strings.HasPrefix(store, "postgres://") || strings.HasPrefix(store, "postgresql://")
}

// redactURL returns u with any password replaced, for messages.
func redactURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		if i := strings.Index(u, "@"); i >= 0 {
			return "(a URL with credentials)" // cannot tell where the password ends
		}
		return u
	}
	return parsed.Redacted()
}

// withDefaults returns c with each zero field that has a default set to
// it: the logger, the frame rate, and the limits field by field.
func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = log.New(os.Stderr)
	}
	if c.FPS == 0 {
		c.FPS = DefaultFPS
	}
	if c.Node == "" {
		c.Node = DefaultNode()
	}
	if c.LeaseTTL == 0 {
		c.LeaseTTL = DefaultLeaseTTL
	}
	c.Limits = c.Limits.withDefaults()
	return c
}

// SettingError is returned by Validate when one setting is wrong: the flag
// that sets it and what is wrong with its value.
type SettingError struct {
	// Flag is the flag that sets the value, e.g. "--max-sessions".
	Flag string
	// Env, when not "", is the environment variable the value came from
	// (Validate cannot know; cmd/grotto fills it in): the message then
	// names both, e.g. "GROTTO_MAX_SESSIONS (--max-sessions) must be…".
	Env string
	// Problem says what is wrong, e.g. "must be at least 1, not -3".
	Problem string
}

func (e *SettingError) Error() string {
	if e.Env != "" {
		return e.Env + " (" + e.Flag + ") " + e.Problem
	}
	return e.Flag + " " + e.Problem
}

// badSetting returns a *SettingError for flag.
func badSetting(flag, format string, args ...any) error {
	return &SettingError{Flag: flag, Problem: fmt.Sprintf(format, args...)}
}

// portProblem says what is wrong with addr as a TCP address to listen on,
// ending with example, a good address; or it returns "". addr must be
// host:port with a port number from 1 to 65535, or 0 (any free port: tests
// listen so) when zeroOK. An empty port would also mean any free port,
// which a host never wants by mistake.
func portProblem(addr, example string, zeroOK bool) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Sprintf("%q is not host:port, e.g. %s", addr, example)
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || (n == 0 && !zeroOK) {
		return fmt.Sprintf("%q needs a port number from 1 to 65535 after the colon, e.g. %s", addr, example)
	}
	return ""
}

// Validate makes DataDir, AdminKeys, BannedKeys and HostKey absolute and returns an
// error saying what is wrong, a *SettingError naming the flag that sets it:
// an empty listen address or one without a port number from 1 to 65535 (0,
// any free port, is allowed for tests), an empty data dir, a
// --proxy-protocol-from entry that is not a CIDR range or an address
// (parseRanges), a frame rate outside 1 to
// MaxFPS, a limit out of its range (Limits.validate), an --http or
// --metrics address without a port number from 1 to 65535 (0 allowed), or
// an --http-trusted-proxy entry that is not a CIDR range or an address
// or is set without --http, a --public-ssh that is not host:port (hints.go), or
// a --pprof address that is not on loopback or has no port from 1 to
// 65535. It reads no file:
// a missing admin-keys file or a bad host key is New's error.
func (c *Config) Validate() error {
	for _, check := range []func() error{
		c.validateListen, c.validatePaths, c.validateNode, c.validateCluster,
		c.validatePacing, c.validateWeb, c.validateSideAddresses,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateListen checks --listen: not empty, a port from 0 to 65535.
func (c *Config) validateListen() error {
	if c.Listen == "" {
		return badSetting("--listen", "must not be empty")
	}
	if p := portProblem(c.Listen, ":23234", true); p != "" {
		return badSetting("--listen", "%s", p)
	}
	return nil
}

// validatePaths makes --data, a bbolt --store, --admin-keys,
// --banned-keys and --host-key absolute, and checks a postgres:// --store
// parses.
func (c *Config) validatePaths() error {
	if c.DataDir == "" {
		return badSetting("--data", "must not be empty")
	}
	abs, err := filepath.Abs(c.DataDir)
	if err != nil {
		return badSetting("--data", "%s: %v", c.DataDir, err)
	}
	c.DataDir = abs
	if c.Store != "" && !IsPostgresURL(c.Store) {
		if strings.Contains(c.Store, "://") {
			return badSetting("--store", "%q: want a bbolt file's path or a postgres:// URL", redactURL(c.Store))
		}
		if c.Store, err = filepath.Abs(c.Store); err != nil {
			return badSetting("--store", "%v", err)
		}
	}
	if IsPostgresURL(c.Store) {
		if _, err := url.Parse(c.Store); err != nil {
			return badSetting("--store", "the URL does not parse: %v", redactURL(c.Store))
		}
	}
	for _, f := range []struct {
		flag string
		path *string
	}{{"--admin-keys", &c.AdminKeys}, {"--banned-keys", &c.BannedKeys}, {"--host-key", &c.HostKey}} {
		if *f.path != "" {
			if *f.path, err = filepath.Abs(*f.path); err != nil {
				return badSetting(f.flag, "%v", err)
			}
		}
	}
	return nil
}

// validateNode checks --proxy-protocol-from and --node's name.
func (c *Config) validateNode() error {
	if _, err := parseRanges("--proxy-protocol-from", c.ProxyProtocolFrom); err != nil {
		return err
	}
	if c.Node == "" {
		return nil
	}
	if len(c.Node) > MaxNodeName {
		return badSetting("--node", "must be at most %d bytes, not %d", MaxNodeName, len(c.Node))
	}
	for _, r := range c.Node {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) || r == '/' {
			return badSetting("--node", "%q must be printable, without spaces or /, e.g. node-a", c.Node)
		}
	}
	return nil
}

// validatePacing checks --lease-ttl, --fps and the limits.
func (c *Config) validatePacing() error {
	if c.LeaseTTL != 0 && c.LeaseTTL < MinLeaseTTL {
		return badSetting("--lease-ttl", "must be at least %v, not %v", MinLeaseTTL, c.LeaseTTL)
	}
	if c.LogFormat != "" && c.LogFormat != "text" && c.LogFormat != "json" {
		return badSetting("--log-format", "must be text or json, not %q", c.LogFormat)
	}
	if c.Drain < 0 || c.Drain > MaxDrain {
		return badSetting("--drain", "must be between 0 and %v, not %v", MaxDrain, c.Drain)
	}
	if c.FPS < 1 || c.FPS > MaxFPS {
		return badSetting("--fps", "must be between 1 and %d, not %d", MaxFPS, c.FPS)
	}
	return c.Limits.validate()
}

// validateWeb checks --http, --http-url, --events-webhook and
// --http-trusted-proxy.
func (c *Config) validateWeb() error {
	if c.HTTP != "" {
		if p := portProblem(c.HTTP, ":8080", true); p != "" {
			return badSetting("--http", "%s", p)
		}
	}
	if c.HTTPURL != "" {
		if c.HTTP == "" {
			return badSetting("--http-url", "needs --http: it is where the web pages are reached, and they are off")
		}
		u, err := url.Parse(c.HTTPURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || (u.Path != "" && u.Path != "/") {
			return badSetting("--http-url", "%q must be a base URL such as https://play.example.org", c.HTTPURL)
		}
	}
	if c.EventsWebhook != "" {
		u, err := url.Parse(c.EventsWebhook)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
			return badSetting("--events-webhook", "%q must be an http or https URL such as https://hooks.example.org/grotto", c.EventsWebhook)
		}
	}
	if len(c.HTTPTrustedProxy) > 0 {
		if c.HTTP == "" {
			return badSetting("--http-trusted-proxy", "needs --http: it names the proxies in front of the web pages, and they are off")
		}
		if _, err := parseRanges("--http-trusted-proxy", c.HTTPTrustedProxy); err != nil {
			return err
		}
	}
	return nil
}

// validateSideAddresses checks --public-ssh, --metrics and --pprof.
func (c *Config) validateSideAddresses() error {
	if c.PublicSSH != "" {
		if p := publicSSHProblem(c.PublicSSH); p != "" {
			return badSetting("--public-ssh", "%s", p)
		}
	}
	if c.Metrics != "" {
		if p := portProblem(c.Metrics, "127.0.0.1:2112", true); p != "" {
			return badSetting("--metrics", "%s", p)
		}
	}
	if c.Pprof != "" {
		host, _, err := net.SplitHostPort(c.Pprof)
		if err != nil || (host != "127.0.0.1" && host != "localhost" && host != "::1") {
			return badSetting("--pprof", "%q must be a loopback address, e.g. 127.0.0.1:6060", c.Pprof)
		}
		// Port 0 too is refused: nobody would be told where the profiler is.
		if p := portProblem(c.Pprof, "127.0.0.1:6060", false); p != "" {
			return badSetting("--pprof", "%s", p)
		}
	}
	return nil
}

// validateCluster checks the node channel's addresses (ClusterListen,
// ClusterAdvertise).
func (c *Config) validateCluster() error {
	if c.ClusterListen == "" {
		if c.ClusterAdvertise != "" {
			return badSetting("--cluster-advertise", "needs --cluster-listen: it is the address other nodes dial to reach this node's channel")
		}
		return nil
	}
	if !strings.HasPrefix(c.Store, "postgres://") && !strings.HasPrefix(c.Store, "postgresql://") {
		return badSetting("--cluster-listen", "needs a PostgreSQL --store (postgres://…): the channel joins nodes sharing one database")
	}
	host, _, err := net.SplitHostPort(c.ClusterListen)
	if err != nil {
		return badSetting("--cluster-listen", "%q must be host:port, e.g. 10.0.0.5:23235 (a private address)", c.ClusterListen)
	}
	if p := portProblem(c.ClusterListen, "10.0.0.5:23235", true); p != "" {
		return badSetting("--cluster-listen", "%s", p)
	}
	if c.ClusterAdvertise == "" {
		if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
			return badSetting("--cluster-advertise", "is needed when --cluster-listen %q listens on every address: give the address other nodes dial, e.g. 10.0.0.5:23235", c.ClusterListen)
		}
		return nil
	}
	ahost, _, err := net.SplitHostPort(c.ClusterAdvertise)
	if ip := net.ParseIP(ahost); err != nil || ahost == "" || (ip != nil && ip.IsUnspecified()) {
		return badSetting("--cluster-advertise", "%q must be host:port naming the host other nodes dial, e.g. 10.0.0.5:23235", c.ClusterAdvertise)
	}
	if p := portProblem(c.ClusterAdvertise, "10.0.0.5:23235", false); p != "" {
		return badSetting("--cluster-advertise", "%s", p)
	}
	return nil
}

// parseRanges parses a flag's address ranges (guard.ParseRanges), naming
// flag in the *SettingError of an entry that is wrong.
func parseRanges(flag string, list []string) (guard.Ranges, error) {
	r, err := guard.ParseRanges(list)
	if err != nil {
		return nil, badSetting(flag, "%s", err)
	}
	return r, nil
}
