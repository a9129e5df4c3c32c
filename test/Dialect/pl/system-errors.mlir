// One section per rule of the system ops.
// RUN: pto-opt %s -split-input-file -verify-diagnostics
// RUN: mlir-opt --load-dialect-plugin=%plugin %s -split-input-file -verify-diagnostics

func.func @event_range() {
  // expected-error @+1 {{'pl.system.sync_src' op event id must be in [0, 7], got 8}}
  pl.system.sync_src set mte2 wait v event 8
  return
}

// -----

func.func @same_pipes() {
  // expected-error @+1 {{'pl.system.sync_dst' op an event synchronises two different pipes, got 'v' twice}}
  pl.system.sync_dst set v wait v event 1
  return
}

// -----

func.func @all_pipe() {
  // expected-error @+1 {{'pl.system.sync_src' op set pipe must be one pipe, not 'all'}}
  pl.system.sync_src set all wait v event 1
  return
}

// -----

func.func @cross_core_event_range() {
  // expected-error @+1 {{'pl.system.sync_wait' op event id must be in [0, 13], got 14}}
  pl.system.sync_wait mte2 event 14
  return
}

// -----

func.func @cross_core_all_pipe() {
  // expected-error @+1 {{'pl.system.sync_set' op the pipe must be one pipe, not 'all'}}
  pl.system.sync_set all event 1
  return
}

// -----

func.func @unknown_pipe() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'pipe' [mte1, mte2, mte3, m, v, s, fix, all]}}
  pl.system.sync_set cube event 1
  return
}
