//! Random kernels through pl-plan-memory and pl-insert-sync: the
//! independent checker (pl-verify-sync) must accept every one, and must
//! reject the kernels with one of the inserted pairs or barriers removed
//! (most of the time: a removed pair can be covered by another through a
//! third pipe).

use melior::{Context, ir::Module, pass::PassManager, utility::parse_pass_pipeline};

/// A tiny deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const V: &str = "!pl.tile<8x16xf32, vec>";
const T: &str = "!pl.tensor<8x16xf32>";

struct Generator {
    rng: Rng,
    next: usize,
}

impl Generator {
    fn name(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    /// Lines of one block; `visible` are the tiles defined around it.
    fn block(&mut self, depth: usize, visible: &[String], lines: &mut Vec<String>, length: usize) {
        let mut values: Vec<String> = visible.to_vec();
        let indent = "  ".repeat(depth + 1);
        for _ in 0..length {
            let choice = self.rng.below(if depth < 2 { 8 } else { 6 });
            match choice {
                0 => {
                    let name = self.name();
                    lines.push(format!(
                        "{indent}{name} = pl.tile.load %x[%c0, %c0] : {T} -> {V}"
                    ));
                    values.push(name);
                }
                1 | 2 if !values.is_empty() => {
                    let a = values[self.rng.below(values.len() as u64) as usize].clone();
                    let name = self.name();
                    let op = ["exp", "neg", "abs", "relu"][self.rng.below(4) as usize];
                    lines.push(format!("{indent}{name} = pl.tile.{op} {a} : {V}"));
                    values.push(name);
                }
                3 | 4 if !values.is_empty() => {
                    let a = values[self.rng.below(values.len() as u64) as usize].clone();
                    let b = values[self.rng.below(values.len() as u64) as usize].clone();
                    let name = self.name();
                    let op = ["add", "mul", "maximum"][self.rng.below(3) as usize];
                    lines.push(format!(
                        "{indent}{name} = pl.tile.{op} {a}, {b} : {V}, {V} -> {V}"
                    ));
                    values.push(name);
                }
                5 if !values.is_empty() => {
                    let a = values[self.rng.below(values.len() as u64) as usize].clone();
                    self.next += 1;
                    lines.push(format!(
                        "{indent}%s{} = pl.tile.store {a}, %out[%c0, %c0] : {V}, {T}",
                        self.next
                    ));
                }
                6 => {
                    self.next += 1;
                    lines.push(format!(
                        "{indent}scf.for %i{} = %c0 to %c3 step %c1 {{",
                        self.next
                    ));
                    let len = 1 + self.rng.below(4) as usize;
                    self.block(depth + 1, &values, lines, len);
                    lines.push(format!("{indent}}}"));
                }
                7 => {
                    lines.push(format!("{indent}scf.if %flag {{"));
                    let len = 1 + self.rng.below(4) as usize;
                    self.block(depth + 1, &values, lines, len);
                    lines.push(format!("{indent}}}"));
                }
                _ => {
                    let name = self.name();
                    lines.push(format!(
                        "{indent}{name} = pl.tile.load %x[%c0, %c0] : {T} -> {V}"
                    ));
                    values.push(name);
                }
            }
        }
    }

    fn kernel(&mut self) -> String {
        let mut lines = Vec::new();
        let len = 4 + self.rng.below(8) as usize;
        self.block(0, &[], &mut lines, len);
        format!(
            "func.func @k(%x: {T}, %out: {T} {{pl.direction = #pl.direction<out>}}, %flag: i1) attributes {{pl.kind = #pl.kind<aiv>}} {{\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c3 = arith.constant 3 : index\n{}\n  return\n}}\n",
            lines.join("\n")
        )
    }
}

fn run(context: &Context, text: &str, pipeline: &str) -> Result<String, String> {
    let mut module =
        Module::parse(context, text).ok_or_else(|| format!("does not parse:\n{text}"))?;
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).expect("pipeline");
    manager
        .run(&mut module)
        .map_err(|_| "the pipeline failed".to_string())?;
    Ok(module.as_operation().to_string())
}

#[test]
fn random_kernels_are_synchronised_and_the_checker_sees_removals() {
    pto_passes::register_passes();
    let context = pto_dialects::create_context();
    // Diagnostics of the expected failures stay quiet.
    context.attach_diagnostic_handler(|_| true);
    let mut generator = Generator {
        rng: Rng(42),
        next: 0,
    };
    let (mut mutations, mut detected) = (0, 0);
    for _ in 0..80 {
        let kernel = generator.kernel();
        let synchronised = run(
            &context,
            &kernel,
            "builtin.module(func.func(pl-plan-memory), pl-insert-sync, pl-verify-sync)",
        )
        .unwrap_or_else(|e| panic!("{e}\n{kernel}"));
        // Remove one inserted pair (a wait and the set before it) or one
        // barrier, and check again.
        let lines: Vec<&str> = synchronised.lines().collect();
        let mut tried = 0;
        for (i, line) in lines.iter().enumerate() {
            if tried == 8 {
                break;
            }
            let trimmed = line.trim();
            let removed: Vec<usize> = if trimmed.starts_with("pl.system.sync_dst") {
                let pair = trimmed.replace("sync_dst", "sync_src");
                match (0..i).rev().find(|&j| lines[j].trim() == pair) {
                    Some(j) => vec![j, i],
                    None => continue,
                }
            } else if trimmed.starts_with("pl.system.pipe_barrier") && !trimmed.ends_with("all") {
                vec![i]
            } else {
                continue;
            };
            let mutated: String = lines
                .iter()
                .enumerate()
                .filter(|(k, _)| !removed.contains(k))
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n");
            mutations += 1;
            tried += 1;
            if run(&context, &mutated, "builtin.module(pl-verify-sync)").is_err() {
                detected += 1;
            }
        }
    }
    eprintln!(
        "pl-verify-sync rejected {detected} of {mutations} kernels with one synchronisation removed"
    );
    assert!(
        mutations > 40,
        "the generator makes kernels that need synchronisation"
    );
    // Every pair the inserter adds is needed on some path unless another
    // pair covers it through a third pipe, which is rare in vector-only
    // kernels.
    assert!(
        detected * 10 >= mutations * 8,
        "only {detected} of {mutations} removals were detected"
    );
}
