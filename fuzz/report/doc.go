// Package report writes the HTML reports of vigil test: one self-contained
// page per test (no scripts, no external files), well-formed XML (XHTML)
// so that tests can parse it with encoding/xml. SafetyHTML reports a
// safety test (paper 000's pipeline), GoalHTML a goal-reaching test
// (papers 001 and 003).
package report
