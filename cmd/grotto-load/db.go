// The database behind a grotto on PostgreSQL: a throw-away server started
// for the run (--store postgres), its CPU from /proc, and its WAL syncs and
// commits from its statistics views.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/internal/pgtest"
)

// database is the PostgreSQL a grotto target keeps its games in.
type database struct {
	url  string         // the postgres:// URL given to grotto as --store
	pid  int            // the postmaster's process id, 0 if unknown
	stop func()         // stops a server this command started; nil otherwise
	srv  *pgtest.Server // the server this command started, if any
}

// startPostgres starts a throw-away PostgreSQL 15 (as internal/pgtest does
// for tests: initdb in a temporary directory, its unix socket, fsync and
// synchronous_commit at their defaults) and creates a database in it.
func startPostgres() (*database, error) {
	srv, err := pgtest.Start()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := srv.CreateDatabase(ctx)
	if err != nil {
		srv.Stop()
		return nil, err
	}
	// postmaster.pid's first line is the postmaster's process id
	// (PostgreSQL docs, 19.2 "The Data Directory Layout").
	raw, err := os.ReadFile(filepath.Join(srv.Dir, "data", "postmaster.pid"))
	if err != nil {
		srv.Stop()
		return nil, err
	}
	first, _, _ := strings.Cut(string(raw), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	return &database{url: url, pid: pid, srv: srv, stop: func() { srv.Stop() }}, nil
}

// dbCPUSeconds returns the CPU seconds (user+system) a PostgreSQL server
// has used: its postmaster's own, that of its children already reaped
// (cutime+cstime, proc(5)), and that of its children still running (the
// backends, the WAL writer, the checkpointer…).
func dbCPUSeconds(postmaster int) (float64, error) {
	f, err := statFields(postmaster)
	if err != nil {
		return 0, err
	}
	total := ticks(f, 11) + ticks(f, 12) + ticks(f, 13) + ticks(f, 14)
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		cf, err := statFields(pid)
		if err != nil || len(cf) < 15 || cf[1] != strconv.Itoa(postmaster) {
			continue // fields after the name: state, ppid, …
		}
		total += ticks(cf, 11) + ticks(cf, 12)
	}
	return total, nil
}

// statFields returns the fields of /proc/<pid>/stat after the command name.
func statFields(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(f) < 15 {
		return nil, fmt.Errorf("/proc/%d/stat: short", pid)
	}
	return f, nil
}

// ticks returns field i of f, in clock ticks, as seconds.
func ticks(f []string, i int) float64 {
	v, _ := strconv.ParseFloat(f[i], 64)
	return v / clockTicks
}

// walStats are cumulative counters of a PostgreSQL server.
type walStats struct {
	syncs   int64 // WAL syncs to disk: pg_stat_wal.wal_sync
	commits int64 // transactions committed in grotto's database: pg_stat_database.xact_commit
}

// readWAL reads the counters of walStats (PostgreSQL 15 docs, 28.2.13
// pg_stat_wal and 28.2.16 pg_stat_database). Backends report their
// counters when a transaction ends, at most once a second, and an idle one
// within 10 s: read them that long after the activity they count.
func readWAL(url string) (walStats, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return walStats{}, err
	}
	defer conn.Close(ctx)
	var w walStats
	err = conn.QueryRow(ctx, `SELECT (SELECT wal_sync FROM pg_stat_wal),
		(SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())`).Scan(&w.syncs, &w.commits)
	return w, err
}
