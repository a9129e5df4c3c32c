//! Every op kind reaches the verifier's rules or is listed as verified by
//! ODS alone: `verify::rule_of` (the module the op's family dispatches to)
//! is the one module whose `handles` says it has rules for the kind, and a
//! kind without a module is in `verify::ODS_ONLY` and handled by none
//! (docs/op-table.md). Adding an op in a family whose module has no rule
//! for it fails here until the rule or the ODS_ONLY entry exists.

use std::collections::HashSet;

use pto_dialects::{
    op_table::OpKind,
    verify::{ODS_ONLY, RULE_MODULES, ods_only, rule_of},
};

/// The modules whose `handles` claims `kind`.
fn handlers(kind: OpKind) -> Vec<&'static str> {
    RULE_MODULES
        .iter()
        .filter(|(_, handles)| handles(kind))
        .map(|(module, _)| *module)
        .collect()
}

#[test]
fn every_kind_has_exactly_its_family_module_or_is_ods_only() {
    let mut problems = Vec::new();
    for &kind in OpKind::ALL {
        let handled_by = handlers(kind);
        match rule_of(kind) {
            Some(module) => {
                if handled_by != [module] {
                    problems.push(format!(
                        "{kind}: its family dispatches to verify::{module}, but the modules with rules for it are {handled_by:?}"
                    ));
                }
            }
            None => {
                if ods_only(kind).is_none() {
                    problems.push(format!(
                        "{kind}: its family has no rule module and it is not in ODS_ONLY"
                    ));
                }
                if !handled_by.is_empty() {
                    problems.push(format!(
                        "{kind}: listed in ODS_ONLY, but {handled_by:?} have rules for it"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn ods_only_lists_each_kind_once_with_a_reason() {
    let mut seen = HashSet::new();
    for (kind, reason) in ODS_ONLY {
        assert!(seen.insert(*kind), "{kind} is listed twice in ODS_ONLY");
        assert!(
            !reason.trim().is_empty(),
            "{kind} has no reason in ODS_ONLY"
        );
        assert_eq!(rule_of(*kind), None, "{kind} is in ODS_ONLY");
    }
}

#[test]
fn module_names_are_distinct() {
    let names: HashSet<_> = RULE_MODULES.iter().map(|(name, _)| *name).collect();
    assert_eq!(names.len(), RULE_MODULES.len());
    for &kind in OpKind::ALL {
        if let Some(module) = rule_of(kind) {
            assert!(
                names.contains(module),
                "{kind}: rule_of names verify::{module}, which RULE_MODULES lacks"
            );
        }
    }
}
