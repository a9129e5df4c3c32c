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

// -----

func.func @hard_with_workspace(%ws: !pl.tensor<16xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{a hard syncall waits on the cores' hardware event: it takes no workspace or used count (a soft one polls them)}}
  pl.system.syncall hard aiv_only on %ws : !pl.tensor<16xi32>
  return
}

// -----

func.func @soft_without_workspace() attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{a soft syncall polls a counter in global memory: give it a workspace, a zeroed tensor of at least 16 i32}}
  pl.system.syncall soft aiv_only
  return
}

// -----

func.func @short_workspace(%ws: !pl.tensor<8xi32>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{a soft syncall's workspace is a packed i32 tensor of at least 16 elements (the 64-byte line its counter owns), got !pl.tensor<8xi32>}}
  pl.system.syncall soft aiv_only on %ws : !pl.tensor<8xi32>
  return
}

// -----

func.func @mix() attributes {pl.kind = #pl.kind<incore>} {
  // expected-error @+1 {{a mix barrier waits for the cube and the vector cores of core groups, which are not translated yet: name the kernel's cores (aiv_only or aic_only)}}
  pl.system.syncall hard mix
  return
}

// -----

func.func @wrong_cores() attributes {pl.kind = #pl.kind<aic>} {
  // expected-error @+1 {{a barrier of the aiv_only cores in a kernel that runs on the others never completes: use aic_only}}
  pl.system.syncall hard aiv_only
  return
}

// -----

// expected-error @+1 {{an orchestration is no block of a launch: pl.system.syncall belongs in a kernel}}
func.func @in_orchestration() attributes {pl.kind = #pl.kind<orchestration>} {
  pl.system.syncall hard aiv_only
  return
}

// -----

func.func @short_event_base(%b: !pl.tensor<128xi64>) attributes {pl.kind = #pl.kind<aiv>} {
  // expected-error @+1 {{the cross-core event base is a static 1-D i64 tensor of at least 256 elements, got !pl.tensor<128xi64>}}
  pl.system.set_ffts %b : !pl.tensor<128xi64>
  return
}
