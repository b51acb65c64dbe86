package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store/postgres"
)

// exec runs sql on the database at url, as a newer build's migration
// would.
func exec(t *testing.T, url, sql string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), sql); err != nil {
		t.Fatal(err)
	}
}

// A deploy is rolled back by starting the older build again on the
// database the newer one migrated. It starts when the newer schema says
// builds as old as this one may use it (its migrations only added what
// this build ignores), and otherwise says why it cannot, in words, instead
// of golang-migrate's "no migration found for version 9 … file does not
// exist" (found trying a rollback).
func TestAnOlderBuildRunsOnANewerSchemaThatAllowsItAndSaysWhyWhenNot(t *testing.T) {
	url := pgtest.NewDatabase(t)
	mustOpen(t, url).Close()
	newer := postgres.SchemaVersion + 1
	// A newer build's additive migration: a column this build ignores.
	exec(t, url, fmt.Sprintf(`ALTER TABLE players ADD COLUMN pronouns text NOT NULL DEFAULT '';
		UPDATE schema_migrations SET version = %d`, newer))
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("this build on schema %d, which allows builds from %d on: %v", newer, postgres.SchemaVersion, err)
	}
	if err := s.ClaimName("SHA256:a", "Ann", timeZero); err != nil {
		t.Errorf("writing on the newer schema: %v", err)
	}
	s.Close()
	// One that is not: the newer schema needs builds from its own version on.
	exec(t, url, fmt.Sprintf(`UPDATE schema_compat SET oldest_reader = %d`, newer))
	_, err = postgres.Open(context.Background(), url)
	want := fmt.Sprintf("schema version %d, made by a newer grotto that builds older than schema %d cannot run on; this build has schema %d", newer, newer, postgres.SchemaVersion)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("this build on schema %d, which needs builds from %d on: %v, want %q", newer, newer, err, want)
	}
	// A newer build's migration that failed half-way: said in words, not
	// golang-migrate's "Dirty database version 10. Fix and force version."
	exec(t, url, `UPDATE schema_migrations SET dirty = true`)
	_, err = postgres.Open(context.Background(), url)
	want = fmt.Sprintf("migration %d failed half-way (a newer grotto's migration: this build's schema is %d)", newer, postgres.SchemaVersion)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a dirty schema %d: %v, want %q", newer, err, want)
	}
}

// TestARoleThatCannotCreateTheSchemaIsOneLineNotAHang: a database owned
// by another role, where grotto's role may only connect, is an ordinary
// DBA setup; the first start must say why it cannot make the schema and
// return, not hang with a connection held (a host's tester: the node sat
// silent for ten minutes and ignored SIGTERM).
func TestARoleThatCannotCreateTheSchemaIsOneLineNotAHang(t *testing.T) {
	url := pgtest.NewDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	role := fmt.Sprintf("visitor%d", time.Now().UnixNano()%1e9)
	for _, q := range []string{"CREATE ROLE " + role + " LOGIN", "REVOKE CREATE ON SCHEMA public FROM PUBLIC"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close(ctx)
	asRole := strings.Replace(url, "postgres://postgres@", "postgres://"+role+"@", 1)

	type result struct{ err error }
	done := make(chan result, 1)
	go func() {
		st, err := postgres.Open(ctx, asRole)
		if err == nil {
			st.Close()
		}
		done <- result{err}
	}()
	select {
	case r := <-done:
		if r.err == nil || !strings.Contains(r.err.Error(), "permission denied") || !strings.Contains(r.err.Error(), "own") {
			t.Errorf("Open as a role that cannot create tables: %v; want the reason and what the role needs", r.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Open as a role that cannot create tables has not returned after 30 s")
	}
}
