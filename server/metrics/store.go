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

// TimedSaves returns s timed; each PutSave that succeeds counts a save.
func (m *Metrics) TimedSaves(s store.Saves) store.Saves {
	if m == nil {
		return s
	}
	return timedSaves{s, m}
}

// TimedScores returns s timed.
func (m *Metrics) TimedScores(s store.Scores) store.Scores {
	if m == nil {
		return s
	}
	return timedScores{s, m}
}

// TimedProfiles returns s timed.
func (m *Metrics) TimedProfiles(s store.Profiles) store.Profiles {
	if m == nil {
		return s
	}
	return timedProfiles{s, m}
}

// TimedQuarantine returns s timed.
func (m *Metrics) TimedQuarantine(s store.Quarantine) store.Quarantine {
	if m == nil {
		return s
	}
	return timedQuarantine{s, m}
}

type timedSaves struct {
	s store.Saves
	m *Metrics
}

func (t timedSaves) Save(fp string) ([]byte, error) {
	began := time.Now()
	b, err := t.s.Save(fp)
	t.m.done(OpSave, began, err)
	return b, err
}

func (t timedSaves) PutSave(fp string, blob []byte) error {
	began := time.Now()
	err := t.s.PutSave(fp, blob)
	t.m.done(OpPutSave, began, err)
	if err == nil {
		t.m.Saves.Inc()
	}
	return err
}

func (t timedSaves) DeleteSave(fp string) error {
	began := time.Now()
	err := t.s.DeleteSave(fp)
	t.m.done(OpDeleteSave, began, err)
	return err
}

func (t timedSaves) AppendJournal(fp string, seq uint64, entry []byte) error {
	began := time.Now()
	err := t.s.AppendJournal(fp, seq, entry)
	t.m.done(OpAppendJournal, began, err)
	return err
}

func (t timedSaves) Journal(fp string) ([][]byte, error) {
	began := time.Now()
	j, err := t.s.Journal(fp)
	t.m.done(OpJournal, began, err)
	return j, err
}

type timedScores struct {
	s store.Scores
	m *Metrics
}

func (t timedScores) FinishGame(fp string, s store.Score) (int, error) {
	began := time.Now()
	rank, err := t.s.FinishGame(fp, s)
	t.m.done(OpFinishGame, began, err)
	return rank, err
}

func (t timedScores) TopScores(n int) ([]store.Score, error) {
	began := time.Now()
	s, err := t.s.TopScores(n)
	t.m.done(OpTopScores, began, err)
	return s, err
}

type timedProfiles struct {
	s store.Profiles
	m *Metrics
}

func (t timedProfiles) Profile(fp string) (store.Profile, error) {
	began := time.Now()
	p, err := t.s.Profile(fp)
	t.m.done(OpProfile, began, err)
	return p, err
}

func (t timedProfiles) PutProfile(p store.Profile) error {
	began := time.Now()
	err := t.s.PutProfile(p)
	t.m.done(OpPutProfile, began, err)
	return err
}

func (t timedProfiles) ClaimName(fp, name string, now time.Time) error {
	began := time.Now()
	err := t.s.ClaimName(fp, name, now)
	t.m.done(OpClaimName, began, err)
	return err
}

func (t timedProfiles) NameHolder(name string) (string, error) {
	began := time.Now()
	fp, err := t.s.NameHolder(name)
	t.m.done(OpNameHolder, began, err)
	return fp, err
}

type timedQuarantine struct {
	s store.Quarantine
	m *Metrics
}

func (t timedQuarantine) Quarantine(fp, reason string, now time.Time) (string, error) {
	began := time.Now()
	key, err := t.s.Quarantine(fp, reason, now)
	t.m.done(OpQuarantine, began, err)
	return key, err
}

func (t timedQuarantine) Quarantined(fp string) ([]store.Quarantined, error) {
	began := time.Now()
	q, err := t.s.Quarantined(fp)
	t.m.done(OpQuarantined, began, err)
	return q, err
}
