// Command grotto-load measures a grotto server under load, side by side with
// two floors measured in the same run: a bare x/crypto/ssh echo server
// (what SSH costs) and a wish + Bubble Tea server drawing a game-sized
// screen (what the libraries cost). Every target is a separate process on
// loopback; the load generator reads its CPU and memory from /proc.
//
//	go build -o /tmp/grotto ./cmd/grotto
//	taskset -c 1 go run ./cmd/grotto-load --grotto /tmp/grotto --floor --pin \
//	    --sessions 100 --rate 1 --duration 30s --idle 10s
//
// With --addr and --pid it loads a server that is already running instead.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

func main() {
	if len(os.Args) > 2 && (os.Args[1] == "floor-echo" || os.Args[1] == "floor-tea") {
		var err error
		if os.Args[1] == "floor-echo" {
			err = serveEcho(os.Args[2])
		} else {
			err = serveTea(os.Args[2])
		}
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var (
		grotto    = flag.String("grotto", "", "grotto binary to start and measure (a temporary data dir; limits raised for load)")
		addr      = flag.String("addr", "", "address of a running grotto to measure instead (loopback only)")
		pid       = flag.Int("pid", 0, "process id of the running grotto at --addr, for CPU and memory")
		floor     = flag.Bool("floor", false, "also measure the two floors and show ratios")
		pin       = flag.Bool("pin", false, "pin the servers it starts to CPU 0 (taskset); run the load generator on CPU 1")
		jsonOut   = flag.Bool("json", false, "print JSON instead of a table")
		storeList = flag.String("store", "bbolt", "stores of the --grotto under test, comma-separated, each measured in turn, side by side: "+
			"bbolt (a file in a temporary data dir), postgres (a throw-away PostgreSQL 15 started for the run, as internal/pgtest does), or a postgres:// URL")
		dbPID = flag.Int("db-pid", 0, "postmaster process id of the PostgreSQL at a postgres:// --store, for its CPU")
		extra = flag.String("serve-flags", "", "more flags for the --grotto it starts, space-separated (e.g. \"--fps 120\")")
		o     options
	)
	flag.IntVar(&o.sessions, "sessions", 100, "concurrent SSH sessions, each with its own ed25519 key and PTY")
	o.rate = 1
	flag.Func("rate", "keys per second per session (0: hold the sessions idle; max: each key as soon as the last one's frame is drawn) (default 1)", func(v string) error {
		if v == "max" {
			o.rate = math.Inf(1)
			return nil
		}
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || r < 0 || math.IsInf(r, 0) {
			return fmt.Errorf("want keys per second or max, got %q", v)
		}
		o.rate = r
		return nil
	})
	flag.DurationVar(&o.duration, "duration", 30*time.Second, "length of the key phase")
	flag.DurationVar(&o.idle, "idle", 0, "length of an idle phase measured before the key phase")
	flag.StringVar(&o.keys, "keys", ".", "keys each session presses in turn ('.' waits: the view does not change; 'lh' walks)")
	flag.IntVar(&o.dial, "dial", 32, "sessions connecting at once")
	flag.IntVar(&o.watchers, "watchers", 0, "web watchers (WebSocket clients of /watch/{id}/ws, 80x24) of the first session's game, joining in a second key phase and watching in a third, each as long as the first (needs --grotto, which then serves --http)")
	flag.IntVar(&o.watchAddrs, "watch-addrs", 20, "loopback source addresses (127.0.0.2 and up) the --watchers come from")
	flag.Parse()
	logf := func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }
	self, _ := os.Executable()

	var targets []*target
	switch {
	case *grotto != "":
		stores := strings.Split(*storeList, ",")
		for _, st := range stores {
			t, err := startGrotto(*grotto, st, len(stores) > 1, *pin, *dbPID, o.watchers > 0, strings.Fields(*extra))
			if err != nil {
				logf("%v", err)
				os.Exit(1)
			}
			defer t.close()
			targets = append(targets, t)
		}
	case *addr != "":
		if host, _, _ := strings.Cut(*addr, ":"); host != "127.0.0.1" && host != "localhost" && host != "[::1]" {
			logf("--addr must be a loopback address")
			os.Exit(2)
		}
		targets = append(targets, &target{name: "grotto", kind: kindGrotto, addr: *addr, pid: *pid})
	default:
		logf("give --grotto BINARY or --addr ADDR --pid PID")
		os.Exit(2)
	}
	if *floor {
		for _, f := range []struct {
			name, sub string
			k         kind
		}{{"floor-tea", "floor-tea", kindTea}, {"floor-echo", "floor-echo", kindEcho}} {
			t, err := startTarget(f.name, f.k, *pin, self, f.sub, freeAddr())
			if err != nil {
				logf("%v", err)
				os.Exit(1)
			}
			targets = append(targets, t)
		}
	}
	var results []result
	for _, t := range targets {
		logf("measuring %s (pid %d) with %d sessions", t.name, t.pid, o.sessions)
		results = append(results, run(t, o, logf))
		t.stop()
	}
	if *jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		var rate any = o.rate
		if math.IsInf(o.rate, 1) {
			rate = "max"
		}
		enc.Encode(map[string]any{"sessions": o.sessions, "rate": rate, "duration": o.duration.String(), "keys": o.keys, "results": results})
		return
	}
	printTable(results)
}

// startGrotto starts the grotto binary on a temporary data dir and the
// store st ("bbolt", "postgres" or a postgres:// URL, see --store), with
// limits raised for load, and the flags extra. named says to name the
// target for its store ("grotto-bbolt"), for a run that measures several
// side by side. web says to serve the web pages too (--http), for
// --watchers.
func startGrotto(bin, st string, named, pin bool, dbPID int, web bool, extra []string) (*target, error) {
	data, err := os.MkdirTemp("", "grotto-load")
	if err != nil {
		return nil, err
	}
	name, args := "grotto", []string{"serve", "--data", filepath.Join(data, "d"),
		"--conn-rate", "1000000", "--max-sessions", "100000", "--max-conns-per-addr", "0", "--idle-timeout", "0"}
	var db *database
	switch {
	case st == "" || st == "bbolt":
		st = "bbolt"
	case st == "postgres":
		if db, err = startPostgres(); err != nil {
			os.RemoveAll(data)
			return nil, fmt.Errorf("start PostgreSQL: %w", err)
		}
	case strings.HasPrefix(st, "postgres://") || strings.HasPrefix(st, "postgresql://"):
		db = &database{url: st, pid: dbPID}
		st = "postgres"
	default:
		os.RemoveAll(data)
		return nil, fmt.Errorf("--store %q: want bbolt, postgres or a postgres:// URL", st)
	}
	if db != nil {
		args = append(args, "--store", db.url)
	}
	if named {
		name += "-" + st
	}
	httpAddr := ""
	if web {
		httpAddr = freeAddr()
		args = append(args, "--http", httpAddr)
	}
	args = append(args, extra...)
	t, err := startTarget(name, kindGrotto, pin, append(append([]string{bin}, args...), "--listen", freeAddr())...)
	if err != nil {
		if db != nil && db.stop != nil {
			db.stop()
		}
		os.RemoveAll(data)
		return nil, err
	}
	t.db, t.dataDir, t.http = db, data, httpAddr
	return t, nil
}

// printTable prints one row per figure, one column per target, and the
// ratios of grotto's figure to each floor's.
func printTable(rs []result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "figure\t"
	for _, r := range rs {
		header += r.Target + "\t"
	}
	for _, r := range rs[1:] {
		header += "÷" + r.Target + "\t"
	}
	fmt.Fprintln(tw, header)
	row := func(name string, get func(result) float64, format string) {
		line := name + "\t"
		for _, r := range rs {
			line += fmt.Sprintf(format, get(r)) + "\t"
		}
		for _, r := range rs[1:] {
			if v := get(r); v != 0 {
				line += fmt.Sprintf("%.2f", get(rs[0])/v) + "\t"
			} else {
				line += "-\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	row("sessions opened", func(r result) float64 { return float64(r.Sessions - r.Failed) }, "%.0f")
	row("sessions failed", func(r result) float64 { return float64(r.Failed) }, "%.0f")
	row("handshakes/s", func(r result) float64 { return r.HandshakesPerSec }, "%.0f")
	row("first frame bytes", func(r result) float64 { return r.FirstFrameBytes }, "%.0f")
	row("keys answered", func(r result) float64 { return float64(r.Keys) }, "%.0f")
	row("key→frame p50 ms", func(r result) float64 { return r.LatencyP50 }, "%.1f")
	row("key→frame p90 ms", func(r result) float64 { return r.LatencyP90 }, "%.1f")
	row("key→frame p99 ms", func(r result) float64 { return r.LatencyP99 }, "%.1f")
	row("key→frame max ms", func(r result) float64 { return r.LatencyMax }, "%.1f")
	row("first key after idle p99 ms", func(r result) float64 { return r.FirstKeyP99 }, "%.1f")
	row("key→first byte p50 ms", func(r result) float64 { return r.FirstByteP50 }, "%.1f")
	row("key→first byte p99 ms", func(r result) float64 { return r.FirstByteP99 }, "%.1f")
	row("bytes per key", func(r result) float64 { return r.BytesPerKey }, "%.0f")
	row("server CPU s/s", func(r result) float64 { return r.CPUCores }, "%.3f")
	row("server CPU ms/key", func(r result) float64 { return r.CPUPerKeyMs }, "%.2f")
	row("server RSS MiB", func(r result) float64 { return r.RSSMiB }, "%.1f")
	row("RSS KiB/session", func(r result) float64 { return r.RSSPerSessionKiB }, "%.0f")
	row("idle CPU ms/s/session", func(r result) float64 { return r.IdleCPUPerSession }, "%.3f")
	row("turns (durable) /s", func(r result) float64 { return r.TurnsPerSec }, "%.0f")
	if slices.ContainsFunc(rs, func(r result) bool { return r.WatchedP99 > 0 }) {
		row("watched player key→frame p99 ms", func(r result) float64 { return r.WatchedP99 }, "%.1f")
		row("other players key→frame p99 ms", func(r result) float64 { return r.OthersP99 }, "%.1f")
	}
	if slices.ContainsFunc(rs, func(r result) bool { return r.Watchers > 0 }) {
		row("web watchers of the watched game", func(r result) float64 { return float64(r.Watchers) }, "%.0f")
		row("watchers joined", func(r result) float64 { return float64(r.WatchersJoined) }, "%.0f")
		row("watchers refused", func(r result) float64 { return float64(r.WatchersFailed) }, "%.0f")
		row("watchers cut off", func(r result) float64 { return float64(r.WatchersCut) }, "%.0f")
		row("all watchers joined after s", func(r result) float64 { return r.WatchJoinS }, "%.1f")
		row("watched p99 ms, while they join", func(r result) float64 { return r.WatchedP99Joining }, "%.1f")
		row("others p99 ms, while they join", func(r result) float64 { return r.OthersP99Joining }, "%.1f")
		row("keys answered, with watchers", func(r result) float64 { return float64(r.KeysWith) }, "%.0f")
		row("watched p50 ms, with watchers", func(r result) float64 { return r.WatchedP50With }, "%.1f")
		row("watched p99 ms, with watchers", func(r result) float64 { return r.WatchedP99With }, "%.1f")
		row("others p50 ms, with watchers", func(r result) float64 { return r.OthersP50With }, "%.1f")
		row("others p99 ms, with watchers", func(r result) float64 { return r.OthersP99With }, "%.1f")
		row("watched p99 with ÷ without", func(r result) float64 { return ratio(r.WatchedP99With, r.WatchedP99) }, "%.2f")
		row("others p99 with ÷ without", func(r result) float64 { return ratio(r.OthersP99With, r.OthersP99) }, "%.2f")
		row("server CPU s/s, with watchers", func(r result) float64 { return r.CPUCoresWith }, "%.3f")
		row("server RSS MiB, with watchers", func(r result) float64 { return r.RSSMiBWith }, "%.1f")
		row("bytes/s per watcher", func(r result) float64 { return r.WatcherKiBPerSec * 1024 }, "%.1f")
	}
	if slices.ContainsFunc(rs, func(r result) bool { return r.DBCPUCores > 0 }) {
		row("database CPU s/s", func(r result) float64 { return r.DBCPUCores }, "%.3f")
		row("database CPU ms/key", func(r result) float64 { return r.DBCPUPerKeyMs }, "%.2f")
		row("WAL syncs/turn", func(r result) float64 { return r.WALSyncsPerTurn }, "%.3f")
		row("commits/turn", func(r result) float64 { return r.CommitsPerTurn }, "%.3f")
	}
	tw.Flush()
}

// ratio returns a ÷ b, 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
