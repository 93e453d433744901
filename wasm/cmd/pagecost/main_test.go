package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseFlags(t *testing.T) {
	o, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.runs != 5 || o.answers != 5 || o.pause != 5*time.Second || !slices.Equal(o.variants, Variants) || !slices.Equal(o.answerVariants, AnswerVariants) {
		t.Errorf("defaults: %+v", o)
	}
	o, err = parseFlags([]string{"-runs", "5", "-variants", "plain, lazy,lazy-prefetch", "-answer-variants", "lazy,idle", "-only", "answer"})
	if err != nil {
		t.Fatal(err)
	}
	if o.runs != 5 || !slices.Equal(o.variants, []string{"plain", "lazy", "lazy-prefetch"}) || !slices.Equal(o.answerVariants, []string{"lazy", "idle"}) || o.only != "answer" {
		t.Errorf("parsed: %+v", o)
	}
	for _, args := range [][]string{{"-runs", "0"}, {"-only", "both"}, {"-variants", ""}, {"extra"}, {"-cpu", "-1"}} {
		if _, err := parseFlags(args); err == nil || !strings.Contains(err.Error(), "usage:") {
			t.Errorf("parseFlags(%q): %v, want the usage", args, err)
		}
	}
	if _, err := parseFlags([]string{"-answer-variants", "lazy,nope"}); err == nil || !strings.Contains(err.Error(), `no page "nope"`) {
		t.Errorf("an unknown page: %v", err)
	}
}
