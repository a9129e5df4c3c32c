//! Rust mirrors of the pl enums of `td/PLAttrs.td` (codes and keywords).
//! `tests/build_ir.rs` checks every keyword round-trips through MLIR, so a
//! drift from the ODS fails the tests.

use std::fmt;

/// Declares a `#[repr(i32)]` enum with its PyPTO codes and MLIR keywords.
macro_rules! code_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $code:literal => $keyword:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(i32)]
        pub enum $name {
            $($(#[$vdoc])* $variant = $code,)+
        }

        impl $name {
            /// Every value, in code order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// Returns the value with the given code.
            pub fn from_code(code: i32) -> Option<Self> {
                Self::ALL.iter().copied().find(|value| *value as i32 == code)
            }

            /// Returns the value spelled `keyword` in the assembly format.
            pub fn from_keyword(keyword: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|value| value.keyword() == keyword)
            }

            /// Returns the keyword used in the assembly format.
            pub fn keyword(self) -> &'static str {
                match self {
                    $($name::$variant => $keyword,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str(self.keyword())
            }
        }
    };
}

code_enum!(
    /// Where a tile lives (docs/pl-guide.md, "Memory spaces").
    MemorySpace {
        /// Global memory (tensors only).
        Ddr = 0 => "ddr",
        /// The unified buffer (UB) of a vector core.
        Vec = 1 => "vec",
        /// L1 of a cube core.
        Mat = 2 => "mat",
        /// L0A: the left matmul operand.
        Left = 3 => "left",
        /// L0B: the right matmul operand.
        Right = 4 => "right",
        /// L0C: the matmul accumulator.
        Acc = 5 => "acc",
        /// The bias table.
        Bias = 6 => "bias",
        /// Scalar registers (arrays only).
        ScalarLocal = 7 => "scalar_local",
        /// A5 MX scale buffer of the left operand.
        LeftScale = 8 => "left_scale",
        /// A5 MX scale buffer of the right operand.
        RightScale = 9 => "right_scale",
    }
);

code_enum!(
    /// Block or scatter layout of a tile (docs/pl-guide.md, "Tensors and tiles").
    TileLayout {
        /// No inner boxes (flat).
        NoneBox = 0 => "none_box",
        /// Row-major.
        RowMajor = 1 => "row_major",
        /// Column-major.
        ColMajor = 2 => "col_major",
    }
);

code_enum!(
    /// Layout of a tensor view (docs/pl-guide.md, "Tensors and tiles").
    TensorLayout {
        /// Row-major, last axis innermost.
        Nd = 0 => "nd",
        /// The last two axes swapped.
        Dn = 1 => "dn",
        /// Fractal (tile-only).
        Nz = 2 => "nz",
        /// A5 MX layout of the left operand.
        MxAZz = 3 => "mx_a_zz",
        /// A5 MX layout of the right operand.
        MxBNn = 4 => "mx_b_nn",
    }
);

code_enum!(
    /// What fills the invalid region of a tile or tensor.
    PadValue {
        /// Undefined.
        Null = 0 => "null",
        /// Zeros.
        Zero = 1 => "zero",
        /// The largest value of the element type.
        Max = 2 => "max",
        /// The smallest value of the element type.
        Min = 3 => "min",
    }
);

code_enum!(
    /// Hardware pipes (docs/a2a3-lowering.md, "The machine the passes model").
    Pipe {
        /// L1 -> L0 moves.
        Mte1 = 0 => "mte1",
        /// GM -> UB/L1 loads.
        Mte2 = 1 => "mte2",
        /// UB -> GM stores.
        Mte3 = 2 => "mte3",
        /// The cube unit.
        M = 3 => "m",
        /// The vector unit.
        V = 4 => "v",
        /// The scalar unit.
        S = 5 => "s",
        /// L0C write-back.
        Fix = 6 => "fix",
        /// Every pipe.
        All = 7 => "all",
    }
);

code_enum!(
    /// The comparison of `pl.tile.cmp`.
    CmpMode {
        /// `==`
        Eq = 0 => "eq",
        /// `!=`
        Ne = 1 => "ne",
        /// `<`
        Lt = 2 => "lt",
        /// `<=`
        Le = 3 => "le",
        /// `>`
        Gt = 4 => "gt",
        /// `>=`
        Ge = 5 => "ge",
    }
);

code_enum!(
    /// The rounding of `pl.tile.cast`.
    RoundMode {
        /// No rounding (exact conversions).
        None = 0 => "none",
        /// Round to nearest even.
        Rint = 1 => "rint",
        /// Round half away from zero.
        Round = 2 => "round",
        /// Toward negative infinity.
        Floor = 3 => "floor",
        /// Toward positive infinity.
        Ceil = 4 => "ceil",
        /// Toward zero.
        Trunc = 5 => "trunc",
        /// Round to odd.
        Odd = 6 => "odd",
    }
);

code_enum!(
    /// The kind of a function, `pl.kind` on func.func (docs/pl-guide.md,
    /// "Functions: kinds, levels, roles, directions").
    FunctionKind {
        /// No plane yet (the default).
        Opaque = 0 => "opaque",
        /// Control plane: builds the task graph, never computes.
        Orchestration = 1 => "orchestration",
        /// A device kernel not yet split into cube and vector parts.
        InCore = 2 => "incore",
        /// A cube kernel.
        Aic = 3 => "aic",
        /// A vector kernel.
        Aiv = 4 => "aiv",
        /// A co-scheduled cube + vector wrapper.
        Group = 5 => "group",
        /// A multi-block launch wrapper.
        Spmd = 6 => "spmd",
        /// Spliced at call sites.
        Inline = 7 => "inline",
        /// A record/replay orchestration fragment.
        Graph = 8 => "graph",
    }
);

code_enum!(
    /// The hierarchy level of a function, `pl.level` on func.func.
    Level {
        /// A vector core.
        Aiv = 0 => "aiv",
        /// A cube core.
        Aic = 1 => "aic",
        /// A core group.
        CoreGroup = 2 => "core_group",
        /// A die of a chip.
        ChipDie = 3 => "chip_die",
        /// A chip.
        Chip = 4 => "chip",
        /// The host.
        Host = 5 => "host",
        /// Cluster levels.
        Cluster0 = 6 => "cluster0",
        Cluster1 = 7 => "cluster1",
        Cluster2 = 8 => "cluster2",
        /// Everything.
        Global = 9 => "global",
    }
);

code_enum!(
    /// The role of a function, `pl.role` on func.func.
    Role {
        /// Builds the task graph.
        Orchestrator = 0 => "orchestrator",
        /// Does the work.
        SubWorker = 1 => "subworker",
    }
);

code_enum!(
    /// The direction of a parameter, `pl.direction` on a func.func argument.
    ParamDirection {
        /// Read only (the default).
        In = 0 => "in",
        /// Written, not read.
        Out = 1 => "out",
        /// Read and written.
        InOut = 2 => "inout",
    }
);
