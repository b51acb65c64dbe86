package metrics

// This file: the store's side of the metrics. Decorators around the store
// roles time each operation a session makes (grotto_store_operation_seconds)
// and count full saves; Metrics is the store.Observer that hears of journal
// commits, so the store imports no metrics library.

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/grotto-game/grotto/store"
)

// The operation label values of grotto_store_operation_seconds and
// grotto_store_operation_errors_total: the store role methods, in
// snake_case.
const (
	OpSave = iota
	OpPutSave
	OpDeleteSave
	OpAppendJournal
	OpJournal
	OpFinishGame
	OpTopScores
	OpProfile
	OpPutProfile
	OpClaimName
	OpNameHolder
	OpQuarantine
	OpQuarantined
	numOps
)

var opNames = [numOps]string{"save", "put_save", "delete_save", "append_journal", "journal", "finish_game", "top_scores",
	"profile", "put_profile", "claim_name", "name_holder", "quarantine", "quarantined"}

// opMetrics are one operation's series, resolved from their vectors once.
type opMetrics struct {
	seconds prometheus.Observer
	errors  prometheus.Counter
}

// done observes an operation of kind op that began at began and returned
// err; store.ErrNotFound is an answer, not a failure.
func (m *Metrics) done(op int, began time.Time, err error) {
	o := &m.ops[op]
	o.seconds.Observe(time.Since(began).Seconds())
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		o.errors.Inc()
	}
}

// JournalCommitted implements store.Observer: a transaction carrying
// entries journal entries committed.
func (m *Metrics) JournalCommitted(entries int) {
	m.JournalCommits.Inc()
	m.JournalEntries.Observe(float64(entries))
}

var _ store.Observer = (*Metrics)(nil)

// Roles are the store roles a session uses, each from wherever the server
// takes it (the key's lease for saves and scores, the store for profiles,
// a logging quarantine). A role a caller does not use may be nil.
type Roles struct {
	store.Saves
	store.Scores
	store.Profiles
	store.Quarantine
}

// Timed returns r with every operation of its roles timed
// (grotto_store_operation_seconds, errors counted but store.ErrNotFound),
// and each PutSave that succeeds counting a save; on a nil Metrics, r as
// it is. The one decorator of the four roles.
func (m *Metrics) Timed(r Roles) Roles {
	if m == nil {
		return r
	}
	t := timed{r, m}
	return Roles{t, t, t, t}
}

// timed is Roles timed by m.
type timed struct {
	r Roles
	m *Metrics
}

// timeErr runs one store operation op that returns only an error, timed.
func (t timed) timeErr(op int, call func() error) error {
	began := time.Now()
	err := call()
	t.m.done(op, began, err)
	return err
}

// timeValue runs one store operation op that returns a value, timed.
func timeValue[V any](t timed, op int, call func() (V, error)) (V, error) {
	began := time.Now()
	v, err := call()
	t.m.done(op, began, err)
	return v, err
}

func (t timed) Save(fp string) ([]byte, error) {
	return timeValue(t, OpSave, func() ([]byte, error) { return t.r.Saves.Save(fp) })
}

func (t timed) PutSave(fp string, blob []byte) error {
	err := t.timeErr(OpPutSave, func() error { return t.r.Saves.PutSave(fp, blob) })
	if err == nil {
		t.m.Saves.Inc()
	}
	return err
}

func (t timed) DeleteSave(fp string) error {
	return t.timeErr(OpDeleteSave, func() error { return t.r.Saves.DeleteSave(fp) })
}

func (t timed) AppendJournal(fp string, seq uint64, entry []byte) error {
	return t.timeErr(OpAppendJournal, func() error { return t.r.Saves.AppendJournal(fp, seq, entry) })
}

func (t timed) Journal(fp string) ([][]byte, error) {
	return timeValue(t, OpJournal, func() ([][]byte, error) { return t.r.Saves.Journal(fp) })
}

func (t timed) FinishGame(fp string, s store.Score) (int, error) {
	return timeValue(t, OpFinishGame, func() (int, error) { return t.r.Scores.FinishGame(fp, s) })
}

func (t timed) TopScores(n int) ([]store.Score, error) {
	return timeValue(t, OpTopScores, func() ([]store.Score, error) { return t.r.Scores.TopScores(n) })
}

func (t timed) Profile(fp string) (store.Profile, error) {
	return timeValue(t, OpProfile, func() (store.Profile, error) { return t.r.Profiles.Profile(fp) })
}

func (t timed) PutProfile(p store.Profile) error {
	return t.timeErr(OpPutProfile, func() error { return t.r.Profiles.PutProfile(p) })
}

func (t timed) ClaimName(fp, name string, now time.Time) error {
	return t.timeErr(OpClaimName, func() error { return t.r.Profiles.ClaimName(fp, name, now) })
}

func (t timed) NameHolder(name string) (string, error) {
	return timeValue(t, OpNameHolder, func() (string, error) { return t.r.Profiles.NameHolder(name) })
}

func (t timed) Quarantine(fp, reason string, now time.Time) (string, error) {
	return timeValue(t, OpQuarantine, func() (string, error) { return t.r.Quarantine.Quarantine(fp, reason, now) })
}

func (t timed) Quarantined(fp string) ([]store.Quarantined, error) {
	return timeValue(t, OpQuarantined, func() ([]store.Quarantined, error) { return t.r.Quarantine.Quarantined(fp) })
}
