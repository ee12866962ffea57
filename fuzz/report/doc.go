// Package report writes the reports of vigil test, for a safety test
// (Safety, paper 000's pipeline) and a goal-reaching test (Goal, papers
// 001 and 003): the text the command prints (WriteText), the --json shape
// (JSON), and one self-contained HTML page per test (SafetyHTML,
// GoalHTML: no scripts, no external files, well-formed XML (XHTML) so
// that tests can parse it with encoding/xml). RunGoal and RunSafety run
// the tests themselves, with the options of vigil test, and return these
// reports: a Go program tests a policy as the command does.
package report
