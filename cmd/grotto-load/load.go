package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// kind is what a target serves, which decides how to enter play and how to
// see that a key was answered.
type kind int

const (
	kindGrotto kind = iota // name screen, title, then the game's turn counter
	kindTea                // floor (b): a turn counter from the first frame
	kindEcho               // floor (a): the echoed bytes are the answer
)

// target is a server process under load.
type target struct {
	name string
	kind kind
	addr string
	pid  int
	cmd  *exec.Cmd

	db      *database // the PostgreSQL a grotto target keeps its games in; nil for bbolt
	http    string    // a grotto target's web address (--http), "" for none
	dataDir string    // a temporary data dir to remove once stopped
}

// close stops t, the database it started, and removes its data dir.
func (t *target) close() {
	t.stop()
	if t.db != nil && t.db.stop != nil {
		t.db.stop()
		t.db.stop = nil
	}
	if t.dataDir != "" {
		os.RemoveAll(t.dataDir)
	}
}

// options is the workload.
type options struct {
	sessions int
	rate     float64       // keys per second per session; 0 holds sessions idle; +Inf: each key once the last is answered
	duration time.Duration // of the key phase
	idle     time.Duration // of the idle phase, measured before the key phase
	keys     string        // pressed in turn
	dial     int           // sessions connecting at once
	// watchers web watchers of the first session's game join a second
	// key phase (watchers.go), from watchAddrs loopback addresses.
	watchers   int
	watchAddrs int
}

// result is one target's figures. Times in milliseconds, sizes in bytes.
type result struct {
	Target            string  `json:"target"`
	Sessions          int     `json:"sessions"`
	Failed            int     `json:"failed"`
	HandshakesPerSec  float64 `json:"handshakes_per_sec"`
	FirstFrameBytes   float64 `json:"first_frame_bytes"`
	Keys              int     `json:"keys"`
	LatencyP50        float64 `json:"key_to_frame_p50_ms"`
	LatencyP90        float64 `json:"key_to_frame_p90_ms"`
	LatencyP99        float64 `json:"key_to_frame_p99_ms"`
	LatencyMax        float64 `json:"key_to_frame_max_ms"`
	FirstKeyP99       float64 `json:"first_key_after_idle_p99_ms"`
	FirstByteP50      float64 `json:"key_to_first_byte_p50_ms"`
	FirstByteP99      float64 `json:"key_to_first_byte_p99_ms"`
	BytesPerKey       float64 `json:"bytes_per_key"`
	CPUCores          float64 `json:"server_cpu_s_per_s"`
	CPUPerKeyMs       float64 `json:"server_cpu_ms_per_key"`
	RSSMiB            float64 `json:"server_rss_mib"`
	RSSPerSessionKiB  float64 `json:"rss_per_session_kib"`
	IdleCPUPerSession float64 `json:"idle_cpu_ms_per_s_per_session"`
	TurnsPerSec       float64 `json:"turns_per_sec"`
	// Of the PostgreSQL behind a grotto target, over the key phase; 0 for bbolt.
	DBCPUCores      float64 `json:"db_cpu_s_per_s,omitempty"`
	DBCPUPerKeyMs   float64 `json:"db_cpu_ms_per_key,omitempty"`
	WALSyncsPerTurn float64 `json:"wal_syncs_per_turn,omitempty"`
	CommitsPerTurn  float64 `json:"commits_per_turn,omitempty"`
	// The watched player's (the first session's) and the other players'
	// key→frame p99 in the key phase; with --watchers, the same while that
	// many web watchers join the watched game (a second key phase), and
	// once they all watch it (a third).
	WatchedP99        float64 `json:"watched_key_to_frame_p99_ms,omitempty"`
	OthersP99         float64 `json:"others_key_to_frame_p99_ms,omitempty"`
	Watchers          int     `json:"watchers,omitempty"`
	WatchersJoined    int64   `json:"watchers_joined,omitempty"`
	WatchersFailed    int64   `json:"watchers_failed,omitempty"`
	WatchersCut       int64   `json:"watchers_cut,omitempty"`
	WatchJoinS        float64 `json:"watchers_join_s,omitempty"`
	WatchedP99Joining float64 `json:"watched_key_to_frame_p99_ms_while_watchers_join,omitempty"`
	OthersP99Joining  float64 `json:"others_key_to_frame_p99_ms_while_watchers_join,omitempty"`
	WatchedP99With    float64 `json:"watched_key_to_frame_p99_ms_with_watchers,omitempty"`
	OthersP99With     float64 `json:"others_key_to_frame_p99_ms_with_watchers,omitempty"`
	WatchedP50With    float64 `json:"watched_key_to_frame_p50_ms_with_watchers,omitempty"`
	OthersP50With     float64 `json:"others_key_to_frame_p50_ms_with_watchers,omitempty"`
	KeysWith          int     `json:"keys_with_watchers,omitempty"`
	CPUCoresWith      float64 `json:"server_cpu_s_per_s_with_watchers,omitempty"`
	RSSMiBWith        float64 `json:"server_rss_mib_with_watchers,omitempty"`
	WatcherKiBPerSec  float64 `json:"watcher_kib_per_s,omitempty"`
}

// session is one load-generating client.
type session struct {
	i         int // its number among the sessions asked for: 0 is the watched one
	c         *sshtest.Client
	sentAt    atomic.Int64 // unix ns of the key awaiting its first byte, 0 if none
	mu        sync.Mutex
	firstByte []time.Duration // guarded by mu: appended from the client's reader
	answered  chan struct{}   // echo: a byte arrived
	turn      int
}

func turnOf(s string) int { return sshtest.Turn(s) }

// startTarget runs a server process and waits for its port.
func startTarget(name string, k kind, pin bool, argv ...string) (*target, error) {
	if pin {
		if ts, err := exec.LookPath("taskset"); err == nil {
			argv = append([]string{ts, "-c", "0"}, argv...)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = nil
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &target{name: name, kind: k, addr: argv[len(argv)-1], pid: cmd.Process.Pid, cmd: cmd}
	for _, a := range argv {
		if _, _, err := net.SplitHostPort(a); err == nil && a != "" {
			t.addr = a
		}
	}
	for range 500 {
		if c, err := net.Dial("tcp", t.addr); err == nil {
			c.Close()
			return t, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.stop()
	return nil, fmt.Errorf("%s did not start on %s", name, t.addr)
}

func (t *target) stop() {
	if t.cmd != nil {
		t.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { t.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.cmd.Process.Kill()
		}
	}
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:0"
	}
	defer ln.Close()
	return ln.Addr().String()
}

// connect opens one session and gets it to play, returning the bytes of the
// first play frame.
func connect(t *target, i int) (*session, int64, error) {
	key, err := sshtest.NewKey()
	if err != nil {
		return nil, 0, err
	}
	s := &session{i: i, answered: make(chan struct{}, 1)}
	c, err := sshtest.Dial(t.addr, key, sshtest.Options{Width: 80, Height: 24, User: fmt.Sprintf("load%d", i),
		DiscardOutput: true, DialTimeout: 30 * time.Second, OnBytes: func(int) {
			if at := s.sentAt.Swap(0); at != 0 {
				s.mu.Lock()
				s.firstByte = append(s.firstByte, time.Duration(time.Now().UnixNano()-at))
				s.mu.Unlock()
			}
			select {
			case s.answered <- struct{}{}:
			default:
			}
		}})
	if err != nil {
		return nil, 0, err
	}
	s.c = c
	wait := func(text string) error {
		_, err := c.WaitForText(60*time.Second, text)
		return err
	}
	var before int64
	switch t.kind {
	case kindGrotto:
		if err := wait("Choose the name"); err != nil {
			return nil, 0, err
		}
		c.Send("\r")
		if err := wait("New game"); err != nil {
			return nil, 0, err
		}
		before = c.BytesReceived()
		c.Send("n")
		if err := wait("Turn: 0"); err != nil {
			return nil, 0, err
		}
	case kindTea:
		if err := wait("Turn: 0"); err != nil {
			return nil, 0, err
		}
	case kindEcho:
		return s, 0, nil
	}
	return s, c.BytesReceived() - before, nil
}

// percentile returns the p-th percentile (0..1) of sorted durations, in ms.
func percentile(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	return float64(d[min(len(d)-1, int(float64(len(d))*p))].Microseconds()) / 1000
}

// run puts the workload on t and measures it, in three phases that each
// fill in their figures of the result: open the sessions, hold them idle
// (if o.idle), then press keys (if o.rate and o.duration).
func run(t *target, o options, log func(string, ...any)) result {
	r := result{Target: t.name, Sessions: o.sessions}
	rss0, _ := rssBytes(t.pid)
	began := time.Now()
	live, failed, firstFrame := openSessions(t, o, log)
	r.HandshakesPerSec = float64(o.sessions) / time.Since(began).Seconds()
	defer func() {
		for _, s := range live {
			s.c.Close()
		}
	}()
	r.Failed = failed
	if len(live) == 0 {
		return r
	}
	r.FirstFrameBytes = float64(firstFrame) / float64(len(live))
	measureMemory(t, len(live), rss0, &r)
	log("%s: %d sessions open (%d failed) in %v", t.name, len(live), r.Failed, time.Since(began).Round(time.Millisecond))
	if o.idle > 0 {
		measureIdle(t, o.idle, len(live), &r, log)
	}
	if o.rate <= 0 || o.duration <= 0 {
		return r
	}
	pressKeys(t, o, live, log).report(&r, o)
	if rss, err := rssBytes(t.pid); err == nil {
		r.RSSMiB = float64(rss) / (1 << 20) // after the keys
	}
	if o.watchers > 0 && t.http != "" && t.kind == kindGrotto {
		withWatchers(t, o, live, &r, log)
	}
	return r
}

// withWatchers runs two more key phases, each as long as the first: in
// the first o.watchers web watchers join the first session's game (all at
// its start, o.dial at a time), in the second they all watch it. It sets
// r's figures with watchers.
func withWatchers(t *target, o options, live []*session, r *result, log func(string, ...any)) {
	if live[0].i != 0 {
		log("%s: the first session failed: no game to watch", t.name)
		return
	}
	id, err := gameID(t.http, "load0")
	if err != nil {
		log("%s: %v", t.name, err)
		return
	}
	r.Watchers = o.watchers
	log("%s: %d web watchers join game %s from %d addresses while the players play", t.name, o.watchers, id, o.watchAddrs)
	w := watch(t.http, id, o.watchers, o.watchAddrs, o.dial, 80, 24, log)
	defer w.stop()
	k := pressKeys(t, o, live, log)
	r.WatchedP99Joining, r.OthersP99Joining = percentile(k.watched, 0.99), percentile(k.others, 0.99)
	join := w.wait(5 * time.Minute)
	r.WatchersJoined, r.WatchersFailed = w.joined.Load(), w.failed.Load()
	r.WatchJoinS = join.Seconds()
	log("%s: %d watchers joined (%d refused) in %.1f s; now they watch", t.name, r.WatchersJoined, r.WatchersFailed, r.WatchJoinS)
	bytes0, began := w.bytes.Load(), time.Now()
	k = pressKeys(t, o, live, log)
	r.WatcherKiBPerSec = float64(w.bytes.Load()-bytes0) / 1024 / time.Since(began).Seconds() / float64(max(1, r.WatchersJoined))
	r.WatchersCut = w.cut.Load()
	r.KeysWith = len(k.lat)
	r.WatchedP99With, r.OthersP99With = percentile(k.watched, 0.99), percentile(k.others, 0.99)
	r.WatchedP50With, r.OthersP50With = percentile(k.watched, 0.5), percentile(k.others, 0.5)
	r.CPUCoresWith = k.cpu / k.wall
	if rss, err := rssBytes(t.pid); err == nil {
		r.RSSMiBWith = float64(rss) / (1 << 20)
	}
	log("%s: %d watchers cut off while watching", t.name, r.WatchersCut)
}

// openSessions opens o.sessions sessions, o.dial at a time, and gets each
// to play. It returns those that got there, in the order they were asked
// for, how many did not (each logged), and the bytes of their first play
// frames added up.
func openSessions(t *target, o options, log func(string, ...any)) (live []*session, failed int, firstFrame int64) {
	sessions := make([]*session, o.sessions)
	var frames, fails atomic.Int64
	sem := make(chan struct{}, max(1, o.dial))
	var wg sync.WaitGroup
	for i := range sessions {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			s, ff, err := connect(t, i)
			if err != nil {
				fails.Add(1)
				log("%s: session %d: %v", t.name, i, err)
				return
			}
			frames.Add(ff)
			sessions[i] = s
		})
	}
	wg.Wait()
	live = slices.DeleteFunc(slices.Clone(sessions), func(s *session) bool { return s == nil })
	return live, int(fails.Load()), frames.Load()
}

// measureMemory lets start-up work settle for a second, then sets
// r.RSSMiB to the server's resident memory and r.RSSPerSessionKiB to its
// growth over rss0 (bytes, read before the sessions opened) per session of
// the n open.
func measureMemory(t *target, n int, rss0 int64, r *result) {
	time.Sleep(time.Second)
	rss1, _ := rssBytes(t.pid)
	r.RSSPerSessionKiB = float64(rss1-rss0) / 1024 / float64(n)
	r.RSSMiB = float64(rss1) / (1 << 20)
}

// measureIdle holds the n open sessions idle for idle and sets
// r.IdleCPUPerSession to the server's CPU over that time, in ms per second
// per session.
func measureIdle(t *target, idle time.Duration, n int, r *result, log func(string, ...any)) {
	m := startCPU(t.pid)
	time.Sleep(idle)
	cpu, wall := m.stop()
	r.IdleCPUPerSession = cpu / wall * 1000 / float64(n)
	log("%s: idle %v: %.3f cores", t.name, idle, cpu/wall)
}

// keyPhase is what the key phase measured.
type keyPhase struct {
	lat       []time.Duration // key to frame (or echo), each key answered, sorted
	watched   []time.Duration // lat of the first session alone (the one --watchers watch), sorted
	others    []time.Duration // lat of every other session, sorted
	first     []time.Duration // key to frame of each session's first key, sorted
	firstByte []time.Duration // key to the first byte back, sorted
	bytes     int64           // received by all sessions in the phase
	cpu, wall float64         // the server's CPU seconds, and the seconds of the phase
	period    time.Duration   // between one session's keys
	dbCPU     float64         // the database's CPU seconds (PostgreSQL targets whose postmaster is known)
	wal       walStats        // the database's WAL syncs and commits in the phase
}

// pressKeys has every live session press o.keys in turn at o.rate for
// o.duration, each starting at its own offset within the first period so
// that they are staggered, not in lockstep.
func pressKeys(t *target, o options, live []*session, log func(string, ...any)) keyPhase {
	bytes0 := readyForKeys(live)
	var mu sync.Mutex
	var k keyPhase
	var wal0 walStats
	var db0 float64
	if t.db != nil {
		wal0, _ = readWAL(t.db.url)
		if t.db.pid != 0 {
			db0, _ = dbCPUSeconds(t.db.pid)
		}
	}
	m := startCPU(t.pid)
	deadline := time.Now().Add(o.duration)
	period := time.Duration(float64(time.Second) / o.rate) // 0 at --rate max
	k.period = period
	rng := rand.New(rand.NewPCG(uint64(len(live)), 7))
	offsets := make([]time.Duration, len(live))
	for i := range offsets {
		if period > 0 {
			offsets[i] = time.Duration(rng.Int64N(int64(period)))
		}
	}
	var wg sync.WaitGroup
	for i, s := range live {
		wg.Go(func() {
			time.Sleep(offsets[i])
			s.press(t, o.keys, period, deadline, log, func(n int, d time.Duration) {
				mu.Lock()
				k.lat = append(k.lat, d)
				if s.i == 0 {
					k.watched = append(k.watched, d)
				} else {
					k.others = append(k.others, d)
				}
				if n == 0 {
					k.first = append(k.first, d) // the first key after the idle phase
				}
				mu.Unlock()
			})
		})
	}
	wg.Wait()
	k.cpu, k.wall = m.stop()
	if t.db != nil {
		if t.db.pid != 0 {
			db1, _ := dbCPUSeconds(t.db.pid)
			k.dbCPU = db1 - db0
		}
		log("%s: waiting 11 s for PostgreSQL's statistics", t.name)
		time.Sleep(11 * time.Second) // idle backends report theirs within 10 s (see readWAL)
		if wal1, err := readWAL(t.db.url); err == nil {
			k.wal = walStats{syncs: wal1.syncs - wal0.syncs, commits: wal1.commits - wal0.commits}
		} else {
			log("%s: PostgreSQL's statistics: %v", t.name, err)
		}
	}
	k.collect(live, bytes0)
	return k
}

// readyForKeys sets each live session's turn from its screen and forgets
// its first-byte times, and returns the bytes all have received so far.
func readyForKeys(live []*session) (received int64) {
	for _, s := range live {
		s.turn = turnOf(s.c.Screen())
		s.mu.Lock()
		s.firstByte = nil
		s.mu.Unlock()
	}
	for _, s := range live {
		received += s.c.BytesReceived()
	}
	return received
}

// collect sets k.bytes to what the live sessions received after bytes0,
// gathers their first-byte times, and sorts k's times.
func (k *keyPhase) collect(live []*session, bytes0 int64) {
	for _, s := range live {
		k.bytes += s.c.BytesReceived()
		s.mu.Lock()
		k.firstByte = append(k.firstByte, s.firstByte...)
		s.mu.Unlock()
	}
	k.bytes -= bytes0
	slices.Sort(k.lat)
	slices.Sort(k.watched)
	slices.Sort(k.others)
	slices.Sort(k.firstByte)
	slices.Sort(k.first)
}

// press presses keys in turn, one each period, until deadline, and calls
// answered with the key's number (from 0) and its time to answer. It stops
// early when a key goes unanswered (logged) or the game ends.
func (s *session) press(t *target, keys string, period time.Duration, deadline time.Time, log func(string, ...any), answered func(n int, d time.Duration)) {
	for n := 0; time.Now().Before(deadline); n++ {
		next := time.Now().Add(period)
		key := string(keys[n%len(keys)])
		t0 := time.Now()
		select {
		case <-s.answered:
		default:
		}
		s.sentAt.Store(t0.UnixNano())
		if err := s.c.Send(key); err != nil {
			return
		}
		over, err := s.await(t)
		if over {
			return
		}
		if err != nil {
			log("%s: a key went unanswered: %v", t.name, err)
			return
		}
		answered(n, time.Since(t0))
		time.Sleep(time.Until(next))
	}
}

// await waits up to 30 s for the answer to the key just sent: a byte from
// an echo target, else a screen at the next turn. over reports a screen
// that shows the game ended instead (a monster found this idle player).
func (s *session) await(t *target) (over bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if t.kind == kindEcho {
		select {
		case <-s.answered:
			return false, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	want := s.turn + 1
	screen, err := s.c.WaitFor(ctx, func(screen string) bool {
		return turnOf(screen) >= want || strings.Contains(screen, "You died") || strings.Contains(screen, "You escaped")
	})
	s.turn = want
	return err == nil && turnOf(screen) < want, err
}

// report sets r's key-phase figures from k.
func (k keyPhase) report(r *result, o options) {
	r.FirstKeyP99 = percentile(k.first, 0.99)
	r.Keys = len(k.lat)
	r.LatencyP50, r.LatencyP90, r.LatencyP99 = percentile(k.lat, 0.5), percentile(k.lat, 0.9), percentile(k.lat, 0.99)
	r.LatencyMax = percentile(k.lat, 1)
	r.WatchedP99, r.OthersP99 = percentile(k.watched, 0.99), percentile(k.others, 0.99)
	r.FirstByteP50, r.FirstByteP99 = percentile(k.firstByte, 0.5), percentile(k.firstByte, 0.99)
	if r.Keys > 0 {
		r.BytesPerKey = float64(k.bytes) / float64(r.Keys)
		r.CPUPerKeyMs = k.cpu * 1000 / float64(r.Keys)
	}
	r.CPUCores = k.cpu / k.wall
	r.DBCPUCores = k.dbCPU / k.wall
	if r.Keys > 0 {
		r.DBCPUPerKeyMs = k.dbCPU * 1000 / float64(r.Keys)
		r.WALSyncsPerTurn = float64(k.wal.syncs) / float64(r.Keys)
		r.CommitsPerTurn = float64(k.wal.commits) / float64(r.Keys)
	}
	r.TurnsPerSec = float64(r.Keys) / min(k.wall, o.duration.Seconds()+k.period.Seconds())
}
