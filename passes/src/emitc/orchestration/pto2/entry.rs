//! The two functions the runtime finds by name (dlsym):
//! `aicpu_orchestration_config` (how many arguments the entry expects) and
//! `aicpu_orchestration_entry` (the lowered body).

use melior::{
    Context,
    ir::{
        Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type,
        attribute::StringAttribute, operation::OperationBuilder, r#type::FunctionType,
    },
};
use pto_dialects::ops::Checked;

use super::value;
use crate::emitc::build::opaque;
use crate::emitc::orchestration::calls::Failure;

/// `emitc.return` of nothing.
pub(super) fn emitc_return(context: &Context) -> melior::ir::Operation<'_> {
    OperationBuilder::new("emitc.return", Location::unknown(context))
        .build()
        .expect("emitc.return builds")
}

/// An exported `emitc.func` named `name` of `function_type` over `region`.
fn exported<'c>(
    context: &'c Context,
    name: &str,
    function_type: FunctionType<'c>,
    region: Region<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    // Exported whatever the library's default visibility: the runtime
    // finds both by name (dlsym).
    let specifiers = ["extern \"C\"", "__attribute__((visibility(\"default\")))"];
    crate::emitc::build::func(
        context,
        Location::unknown(context),
        name,
        function_type,
        &specifiers,
        region,
    )
    .map_err(|e| e.to_string())
}

/// The config (expecting `argument_count` arguments) and the entry, whose
/// body is taken from `orchestration` (left empty).
pub(super) fn functions<'c, 'a>(
    context: &'c Context,
    orchestration: OperationRef<'c, 'a>,
    argument_count: usize,
) -> Result<(melior::ir::Operation<'c>, melior::ir::Operation<'c>), Failure<'c, 'a>> {
    let location = Location::unknown(context);
    let args_type = opaque(context, "const ChipTaskArgs&");
    let entry_type = FunctionType::new(context, &[args_type], &[]);
    let region = Region::new();
    pto_dialects::ir::take_body(&region, &orchestration.region_opt(0).unwrap());
    let entry = exported(context, "aicpu_orchestration_entry", entry_type, region)
        .map_err(|m| (orchestration, m))?;
    let config_type: Type = opaque(context, "PTO2OrchestrationConfig");
    let block = Block::new(&[(args_type, location)]);
    let config = value(
        block.append_operation(
            OperationBuilder::new("emitc.literal", location)
                .add_attributes(&[(
                    Identifier::new(context, "value"),
                    StringAttribute::new(
                        context,
                        &format!(
                            "PTO2OrchestrationConfig{{ .expected_arg_count = {argument_count} }}"
                        ),
                    )
                    .into(),
                )])
                .add_results(&[config_type])
                .build()
                .expect("emitc.literal builds"),
        ),
    );
    block.append_operation(
        OperationBuilder::new("emitc.return", location)
            .add_operands(&[config])
            .build()
            .expect("emitc.return builds"),
    );
    let region = Region::new();
    region.append_block(block);
    let config_type = FunctionType::new(context, &[args_type], &[config_type]);
    let config = exported(context, "aicpu_orchestration_config", config_type, region)
        .map_err(|m| (orchestration, m))?;
    Ok((config, entry))
}
