// Package metrics holds a grotto server's Prometheus instruments, in a
// private registry the server owns, and serves them for scraping
// (--metrics). Every name starts with grotto_ and carries its unit as
// Prometheus asks (_seconds, _total; https://prometheus.io/docs/practices/naming/).
// No label ever holds a fingerprint or a player's name: labels take only the
// few fixed values each instrument lists.
//
// Files: metrics.go (the instruments, the registry, the handler), keyframe.go
// (key→frame latency, measured on a session's hot path without allocating),
// store.go (store latency by operation, journal commits, saves, finished
// games, as decorators around the store roles and a store.Observer).
package metrics

import (
	"net/http"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/grotto-game/grotto/game"
)

// Namespace is the prefix of every grotto metric.
const Namespace = "grotto"

// Label values of grotto_connections_total's result.
const (
	ConnAccepted       = "accepted"             // admitted: may go on to the SSH handshake
	ConnHealthCheck    = "health_check"         // admitted, a balancer's health check (a PROXY header with the LOCAL command), not a player
	ConnTooMany        = "refused_too_many"     // refused: its address holds Limits.MaxConnsPerAddr already
	ConnBadProxyHeader = "refused_proxy_header" // refused: a trusted balancer sent no valid PROXY header, or an untrusted address sent one
)

// Label values of grotto_sessions' kind.
const (
	KindPlaying  = "playing"  // a key's player session with a game open
	KindWatching = "watching" // a session watching another player's game
	KindTitle    = "title"    // every other live session: title, name or take-over screen, settings between games
	KindBrowser  = "browser"  // a session played in a web browser (none yet: always 0)
)

// Sessions is how many live sessions there are of each kind, at one
// moment. A session counts once, under one kind.
type Sessions struct {
	Playing, Watching, Title, Browser int
}

// Sources are what the server reads at scrape time for the metrics it does
// not count as events happen. A nil field reads as 0.
type Sources struct {
	// Sessions counts the live sessions by kind (grotto_sessions).
	Sessions func() Sessions
	// DroppedWatchFrames is how many frames were replaced before a
	// watcher read them, since the server started
	// (grotto_watch_frames_dropped_total; server/lobby Memory.DroppedFrames).
	DroppedWatchFrames func() uint64
	// LeaseRenewFailures is how many renewals of this node's leases
	// failed since it started (grotto_lease_renewal_failures_total): the
	// database did not answer, and a lease not renewed within the TTL may
	// be claimed by another node. nil reads 0.
	LeaseRenewFailures func() uint64
	// LeasesLost is how many keys' leases the database said this node had
	// lost when it renewed (grotto_leases_lost_total): another node
	// claimed them, and their sessions here ended. nil reads 0.
	LeasesLost func() uint64
	// NodeChannelFailures is how many calls to other nodes over the node
	// channel failed (grotto_node_channel_failures_total): a ping, a
	// take-over's evict, a watch, a kick or a broadcast. nil reads 0.
	NodeChannelFailures func() uint64
	// Ready says whether the node should be sent new players, as /readyz
	// does (grotto_ready: 1 or 0). nil reads 1.
	Ready func() bool
	// EventsPublished is how many events the node's live feed took, its
	// own and other nodes' (grotto_events_published_total; server/events
	// Hub.Published). nil reads 0.
	EventsPublished func() uint64
	// EventFollowersCut is how many followers of the feed (`ssh host
	// events`, the front page's stream) were cut for falling behind
	// (grotto_event_followers_cut_total). nil reads 0.
	EventFollowersCut func() uint64
	// WebhookDropped is how many events the webhook dropped unsent, for a
	// full queue or a receiver that refused them for good
	// (grotto_events_webhook_dropped_total). nil reads 0.
	WebhookDropped func() uint64
	// WebhookFailures is how many POSTs to the webhook failed and were
	// tried again (grotto_events_webhook_failures_total). nil reads 0.
	WebhookFailures func() uint64
	// WebhookQueued is how many events wait for the webhook now
	// (grotto_events_webhook_queued). nil reads 0.
	WebhookQueued func() int
	// Unsaved is how many keys' games could not be saved when their
	// session ended and have not been saved since (grotto_games_unsaved):
	// their last turns are lost if the server stops now. nil reads 0.
	Unsaved func() int
}

// Metrics are one server's instruments and the registry that holds them.
// Its counters and histograms are safe for concurrent use and cost a few
// atomic operations, no lock and no allocation, per event.
type Metrics struct {
	reg *prometheus.Registry

	// Connections counts TCP connections by result (grotto_connections_total
	// {result}: ConnAccepted, ConnHealthCheck, ConnTooMany,
	// ConnBadProxyHeader), counted by
	// the server's connection callback before the SSH handshake.
	Connections *prometheus.CounterVec
	// WebConnections counts the web pages' connections (--http) by what
	// became of them at accept, and their requests refused for a body
	// (grotto_web_connections_total{result}: server/web's Conn* results).
	WebConnections *prometheus.CounterVec
	// ConnectionsOpen is the number of admitted connections not yet closed
	// (grotto_connections_open), sessions or not.
	ConnectionsOpen prometheus.Gauge
	// Auth counts authentication attempts (grotto_auth_attempts_total
	// {method, result}): method "publickey" is always accepted (the key is
	// the player's identity); "keyboard-interactive", tried by clients
	// without a key, is always refused with how to make one.
	Auth *prometheus.CounterVec
	// Turns counts game turns played (grotto_turns_total): commands the
	// game applied, impossible ones (which cost no turn) not counted.
	Turns prometheus.Counter
	// GamesFinished counts games that ended (grotto_games_finished_total
	// {outcome}: "died" or "won"), when the turn that ended them is played.
	GamesFinished *prometheus.CounterVec
	// TakeOvers counts take-overs (grotto_takeovers_total): a key's second
	// session took its game over from the first, which saved and left.
	TakeOvers prometheus.Counter
	// KeyFrame is the time from a key read from a session's SSH channel to
	// the next frame written to it (grotto_key_to_frame_seconds); see
	// KeyClock.
	KeyFrame prometheus.Histogram
	// SilentKeys counts keys that changed nothing on screen
	// (grotto_keys_without_frame_total): handled, and the frame drawn
	// after them wrote nothing, so KeyFrame does not time them.
	SilentKeys prometheus.Counter
	// StoreSeconds is the latency of store operations made for sessions,
	// by operation (grotto_store_operation_seconds{operation}; the Op*
	// values in store.go), failed ones included.
	StoreSeconds *prometheus.HistogramVec
	// StoreErrors counts store operations that returned an error other
	// than "not found" (grotto_store_operation_errors_total{operation}).
	StoreErrors *prometheus.CounterVec
	// Saves counts full saves written (grotto_saves_total): a game's
	// snapshot, on a new game, a new level, every 100 turns, on leaving,
	// or after a failed write; journal entries are not saves.
	Saves prometheus.Counter
	// JournalCommits counts committed transactions that carried journal
	// entries (grotto_journal_commits_total): one fsync on bbolt, one
	// commit on PostgreSQL, shared by every player whose entry it carried.
	JournalCommits prometheus.Counter
	// JournalEntries is how many journal entries each such commit carried
	// (grotto_journal_entries_per_commit): group commit at work.
	JournalEntries prometheus.Histogram
	// FencedWrites counts writes of a game the store refused because
	// another node had claimed its key (grotto_fenced_writes_total): the
	// session ends without writing again.
	FencedWrites prometheus.Counter
	// StorageWaits counts the times a session's turn began to wait for the
	// store (grotto_storage_waits_total): the database out of reach, or a
	// table locked longer than the store's lock wait; the player is told
	// and the turn is retried every second.
	StorageWaits prometheus.Counter

	ops       [numOps]opMetrics  // StoreSeconds and StoreErrors by operation, resolved once
	died, won prometheus.Counter // GamesFinished by outcome, resolved once
}

// KeyFrameBuckets are the bounds of grotto_key_to_frame_seconds, in
// seconds: a session draws at most one frame each 1/FPS (33 ms at the
// default 30 fps), so most keys fall between 1 and 50 ms.
var KeyFrameBuckets = []float64{.001, .0025, .005, .01, .02, .035, .05, .075, .1, .25, .5, 1, 2.5, 5}

// StoreBuckets are the bounds of grotto_store_operation_seconds, in
// seconds: a bbolt fsync takes about 0.3 ms, a group commit waits up to
// 2 ms for company, PostgreSQL adds a network round trip.
var StoreBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}

// JournalEntryBuckets are the bounds of grotto_journal_entries_per_commit
// (entries; store/postgres commits at most 512 at once).
var JournalEntryBuckets = []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512}

// New returns a server's metrics in a registry of their own (never
// Prometheus's global one), with Go's runtime and the process's collectors
// and grotto_build_info.
func New(src Sources) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{reg: reg,
		Connections: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "connections_total",
			Help: "TCP connections, by result: accepted (a client), health_check (a balancer's check: a PROXY header with the LOCAL command), or refused before the SSH handshake."}, []string{"result"}),
		WebConnections: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "web_connections_total",
			Help: "Connections to the web pages, by what became of them at accept (accepted, accepted in a waiting one's place, refused busy or for the address's limits), and requests refused for a body."}, []string{"result"}),
		ConnectionsOpen: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "connections_open",
			Help: "Admitted TCP connections not yet closed."}),
		Auth: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "auth_attempts_total",
			Help: "SSH authentication attempts, by method and result."}, []string{"method", "result"}),
		Turns: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "turns_total",
			Help: "Game turns played."}),
		GamesFinished: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "games_finished_total",
			Help: "Games that ended, by outcome (died or won)."}, []string{"outcome"}),
		TakeOvers: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "takeovers_total",
			Help: "Games a key's second session took over from its first."}),
		KeyFrame: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "key_to_frame_seconds",
			Help:    "Time from a key read from a session's SSH channel to the frame that answers it (keys that change nothing on screen are not timed).",
			Buckets: KeyFrameBuckets}),
		SilentKeys: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "keys_without_frame_total",
			Help: "Keys that changed nothing on screen (not timed in key_to_frame_seconds)."}),
		StoreSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "store_operation_seconds",
			Help: "Latency of store operations made for sessions, by operation.", Buckets: StoreBuckets}, []string{"operation"}),
		StoreErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "store_operation_errors_total",
			Help: "Store operations made for sessions that failed (not found is no failure), by operation."}, []string{"operation"}),
		Saves: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "saves_total",
			Help: "Full saves (snapshots) of games written."}),
		JournalCommits: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "journal_commits_total",
			Help: "Committed store transactions that carried journal entries (one fsync each on bbolt)."}),
		JournalEntries: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "journal_entries_per_commit",
			Help: "Journal entries carried by each journal commit.", Buckets: JournalEntryBuckets}),
		FencedWrites: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "fenced_writes_total",
			Help: "Writes of a game refused because another node had claimed its key (the session ends)."}),
		StorageWaits: prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "storage_waits_total",
			Help: "Times a session's turn began to wait for the store (out of reach, or a table locked); retried every second."}),
	}
	// Every label value exists from the start, so a rate over a series
	// that has not happened yet reads 0, not "no data".
	for _, r := range []string{ConnAccepted, ConnHealthCheck, ConnTooMany, ConnBadProxyHeader} {
		m.Connections.WithLabelValues(r)
	}
	m.Auth.WithLabelValues("publickey", "accepted")
	m.Auth.WithLabelValues("keyboard-interactive", "refused")
	m.died, m.won = m.GamesFinished.WithLabelValues("died"), m.GamesFinished.WithLabelValues("won")
	for op := range m.ops {
		m.ops[op] = opMetrics{seconds: m.StoreSeconds.WithLabelValues(opNames[op]), errors: m.StoreErrors.WithLabelValues(opNames[op])}
	}
	reg.MustRegister(m.Connections, m.WebConnections, m.ConnectionsOpen, m.Auth, m.Turns, m.GamesFinished, m.TakeOvers, m.KeyFrame, m.SilentKeys,
		m.StoreSeconds, m.StoreErrors, m.Saves, m.JournalCommits, m.JournalEntries, m.FencedWrites, m.StorageWaits,
		counterFunc("lease_renewal_failures_total", "Renewals of this node's leases that failed (a lease not renewed within the TTL may be claimed by another node).", src.LeaseRenewFailures),
		counterFunc("leases_lost_total", "Keys whose lease this node lost to another node's claim (their sessions here ended).", src.LeasesLost),
		counterFunc("node_channel_failures_total", "Calls to other nodes over the node channel that failed.", src.NodeChannelFailures),
		counterFunc("events_published_total", "Events the node's live feed took, its own and other nodes'.", src.EventsPublished),
		counterFunc("event_followers_cut_total", "Followers of the events feed cut for falling behind.", src.EventFollowersCut),
		counterFunc("events_webhook_dropped_total", "Events the webhook dropped unsent: its queue was full, or the receiver refused them for good.", src.WebhookDropped),
		counterFunc("events_webhook_failures_total", "POSTs to the events webhook that failed and were tried again.", src.WebhookFailures),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "events_webhook_queued",
			Help: "Events waiting to be posted to the events webhook."},
			func() float64 {
				if src.WebhookQueued == nil {
					return 0
				}
				return float64(src.WebhookQueued())
			}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "games_unsaved",
			Help: "Games that could not be saved when their session ended and have not been saved since (lost if the server stops now)."},
			func() float64 {
				if src.Unsaved == nil {
					return 0
				}
				return float64(src.Unsaved())
			}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: Namespace, Name: "ready",
			Help: "1 while the node should be sent new sessions (/readyz says ready), else 0: draining, or its database unreachable."},
			func() float64 {
				if src.Ready == nil || src.Ready() {
					return 1
				}
				return 0
			}),
		sessionsCollector{desc: prometheus.NewDesc(Namespace+"_sessions", "Live sessions, by kind.", []string{"kind"}, nil), count: src.Sessions},
		prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Name: "watch_frames_dropped_total",
			Help: "Frames of a watched game replaced before the watcher read them (a slow watcher sees only the newest)."},
			func() float64 {
				if src.DroppedWatchFrames == nil {
					return 0
				}
				return float64(src.DroppedWatchFrames())
			}),
		buildInfo(),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// counterFunc is a counter of grotto's named name whose value f reads (0
// when f is nil).
func counterFunc(name, help string, f func() uint64) prometheus.CounterFunc {
	return prometheus.NewCounterFunc(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, func() float64 {
		if f == nil {
			return 0
		}
		return float64(f())
	})
}

// Registry returns the registry holding every metric of the server, for
// tests (prometheus/testutil) and for serving.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler returns the HTTP handler that serves the metrics in Prometheus's
// exposition formats (promhttp.HandlerFor); a metric that fails to collect
// fails the scrape with HTTP 500, so a broken collector is seen.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, MaxRequestsInFlight: 4})
}

// Authenticated counts one authentication attempt with method (an SSH
// method name, RFC 4252 section 5: "publickey", "keyboard-interactive")
// and whether it was accepted.
func (m *Metrics) Authenticated(method string, accepted bool) {
	result := "refused"
	if accepted {
		result = "accepted"
	}
	m.Auth.WithLabelValues(method, result).Inc()
}

// sessionsCollector reads the live sessions by kind once per scrape, so
// the four series add up to one moment's count.
type sessionsCollector struct {
	desc  *prometheus.Desc
	count func() Sessions
}

// Describe implements prometheus.Collector.
func (c sessionsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect implements prometheus.Collector.
func (c sessionsCollector) Collect(ch chan<- prometheus.Metric) {
	var n Sessions
	if c.count != nil {
		n = c.count()
	}
	for _, k := range []struct {
		kind string
		n    int
	}{{KindPlaying, n.Playing}, {KindWatching, n.Watching}, {KindTitle, n.Title}, {KindBrowser, n.Browser}} {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(k.n), k.kind)
	}
}

// Build returns what grotto build runs: the main module's version
// ("(devel)" for a build from a work tree without a version), the VCS
// revision it was built from ("" when unknown: a build with
// -buildvcs=false) and the Go version, from runtime/debug.ReadBuildInfo.
func Build() (version, revision, goVersion string) {
	version, goVersion = "unknown", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		version, goVersion = bi.Main.Version, bi.GoVersion
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	return version, revision, goVersion
}

// buildInfo is grotto_build_info, always 1, its labels saying what runs:
// the main module's version ("(devel)" for a build from a work tree without
// a version), the VCS revision it was built from ("" when unknown), and the
// Go version (runtime/debug.ReadBuildInfo).
func buildInfo() prometheus.Collector {
	version, revision, goVersion := Build()
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "build_info",
		Help:        "Always 1; its labels say which grotto build runs: version, VCS revision, Go version.",
		ConstLabels: prometheus.Labels{"version": version, "revision": revision, "goversion": goVersion}})
	g.Set(1)
	return g
}

// Played counts a turn the game applied, and the game it ended, if it did
// (session.Config.Played).
func (m *Metrics) Played(res game.Result) {
	if m == nil {
		return
	}
	m.Turns.Inc()
	switch {
	case res.Died:
		m.died.Inc()
	case res.Won:
		m.won.Inc()
	}
}
