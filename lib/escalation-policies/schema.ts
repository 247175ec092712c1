import { z } from 'zod';
import { idList, idSchema, metaSchema, requiredText, wordOf } from '../api-shapes/schemas.ts';
import { COLOR_HEX, TIMEOUT_UNITS, type EscalationLayer } from './layers.ts';
import { MAX_REASSIGN_IDS, MAX_REPEAT } from '../limits.ts';


/** Rails-style `_destroy`: true, 1, "1", "true" remove; false, 0, "0", "false", null keep. */
const destroyFlag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false']), z.null()], { error: 'must be true or false' })
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');

export const layerAttributes = z.object(
  {
    id: idSchema.optional(),
    layer: z.int({ error: 'must be an integer of at least 1' }).min(1, 'must be an integer of at least 1').optional(),
    timeout: z.int({ error: 'must be a positive integer' }).min(1, 'must be a positive integer').optional(),
    timeout_unit: wordOf(TIMEOUT_UNITS).optional(),
    color_hex: z.string({ error: 'must be a colour like #1E88E5' }).regex(COLOR_HEX, 'must be a colour like #1E88E5').nullable().optional(),
    _destroy: destroyFlag.optional(),
  },
  { error: 'must be an object' },
);

const reassignIds = idList.max(MAX_REASSIGN_IDS, `must hold at most ${MAX_REASSIGN_IDS} ids`);

export const policyCreate = z.object({
  name: requiredText(),
  repeat: z
    .int({ error: `must be an integer between 0 and ${MAX_REPEAT}` })
    .min(0, `must be an integer between 0 and ${MAX_REPEAT}`)
    .max(MAX_REPEAT, `must be an integer between 0 and ${MAX_REPEAT}`)
    .optional(),
  reassign_team_ids: reassignIds.optional(),
  reassign_account_user_ids: reassignIds.optional(),
  escalation_layers_attributes: z.array(layerAttributes, { error: 'must be a list of layers' }).optional(),
  meta: metaSchema,
});
export const policyUpdate = policyCreate.partial();

export type PolicyCreateInput = z.output<typeof policyCreate>;
export type PolicyUpdateInput = z.output<typeof policyUpdate>;

/** Stored fields of an ESCALATION_POLICY (team_ids is computed from teams when rendering). */
export interface EscalationPolicyData {
  name: string;
  repeat: number;
  reassign_team_ids: string[];
  reassign_account_user_ids: string[];
  escalation_layers: EscalationLayer[];
}
