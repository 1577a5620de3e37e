package main

// The shape check: every answer the SDK's client decoded is decoded a second time from the raw
// bytes into the same type from github.com/stellar/go-stellar-sdk/protocols/rpc, the package
// stellar-rpc itself answers with (stellar-rpc's cmd/stellar-rpc/internal/methods build their
// responses from it). That second pass refuses fields the type does not have, and a re-encoding
// of the decoded value shows fields the type always writes (no omitempty) that the answer left
// out. Both are differences from what stellar-rpc sends.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
)

// recorder keeps the body of the last HTTP answer the SDK's client read.
type recorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	last []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.last = body
	r.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

func (r *recorder) lastBody() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.last...)
}

// resultOf takes the JSON-RPC `result` out of an answer (jrpc2 may send a call as a batch of one).
func resultOf(body []byte) (json.RawMessage, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(trimmed, &batch); err != nil || len(batch) != 1 {
			return nil, fmt.Errorf("answer is not a batch of one: %s", clip(trimmed))
		}
		trimmed = batch[0]
	}
	var env struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(trimmed, &env); err != nil || len(env.Result) == 0 {
		return nil, fmt.Errorf("answer has no result: %s", clip(trimmed))
	}
	return env.Result, nil
}

// checkShape compares the raw result of the last call with the protocol type T.
func checkShape[T any](rec *recorder, method string) error {
	raw, err := resultOf(rec.lastBody())
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	var strict T
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&strict); err != nil {
		return fmt.Errorf("%s: the answer does not fit protocol.%T: %v", method, strict, err)
	}
	again, err := json.Marshal(strict)
	if err != nil {
		return fmt.Errorf("%s: re-encoding: %v", method, err)
	}
	var want, got any
	_ = json.Unmarshal(again, &want)
	_ = json.Unmarshal(raw, &got)
	if missing := missingKeys("", want, got); len(missing) > 0 {
		return fmt.Errorf("%s: fields stellar-rpc always sends are missing: %v", method, missing)
	}
	return nil
}

// missingKeys lists the object keys of want (paths) that got does not have.
func missingKeys(path string, want, got any) []string {
	var out []string
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{path + " (not an object)"}
		}
		for k, wv := range w {
			gv, present := g[k]
			if !present {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, missingKeys(path+"."+k, wv, gv)...)
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []string{path + " (not an array)"}
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			out = append(out, missingKeys(fmt.Sprintf("%s[%d]", path, i), w[i], g[i])...)
		}
	}
	sort.Strings(out)
	return out
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}
