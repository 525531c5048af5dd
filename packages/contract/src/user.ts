import { z } from 'zod';
import { ZTermsVersion } from './terms.ts';

const money = z.string().describe('decimal string, 2 places, BRL');

/** User info: every field of spec §3. Money fields are decimal strings ("0.00"). */
export const ZUserInfo = z.object({
  id: z.number().int(),
  name: z.string().describe('username'),
  d7_map: z.string().nullable(),
  day7_id: z.string().nullable(),
  bridge_password_token: z.string().nullable(),
  bridge_password: z.string().nullable(),
  nickname: z.string().nullable(),
  realname: z.string(),
  email: z.string().nullable(),
  phone: z.string(),
  qq: z.string().nullable(),
  gender: z.union([z.literal(0), z.literal(1), z.literal(2)]).describe('0 unset, 1 male, 2 female'),
  invite_code: z.string(),
  money,
  fs_money: money.describe('rebate (bonus) balance'),
  ml_money: money.describe('wagering still required before bonus money is withdrawable'),
  total_money: money,
  total_slot_money: money,
  total_live_money: money,
  score: z.number().int(),
  register_ip: z.string().nullable(),
  register_area: z.string().nullable(),
  register_site: z.string(),
  status: z.number().int().describe('1 active, 0 disabled'),
  is_tips_on: z.number().int(),
  is_in_on: z.number().int(),
  is_trans_on: z.number().int(),
  is_demo: z.number().int(),
  lang: z.string(),
  top_id: z.number().int().nullable(),
  agent_id: z.number().int().nullable(),
  total_credit: money,
  used_credit: money,
  level: z.number().int(),
  slot_level: z.number().int(),
  live_level: z.number().int(),
  level_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  site: z.string(),
  is_ms_reg: z.number().int(),
  has_qk_pwd: z.boolean(),
  profileurl: z.string().nullable(),
  terms_pending: ZTermsVersion.nullable()
    .optional()
    .describe('a new terms version in force that the player must accept before betting or depositing'),
});
export type TUserInfo = z.infer<typeof ZUserInfo>;

export const ZProfilePicture = z.object({ id: z.number().int(), url: z.string() });
/** GET /api/profilepictures */
export const ZProfilePictures = z.object({
  male: z.array(ZProfilePicture),
  female: z.array(ZProfilePicture),
});
export type TProfilePictures = z.infer<typeof ZProfilePictures>;
export const ZProfilePicturesResponse = ZProfilePictures;

/** POST /api/profilepictures/user — member_id, when sent, must be the caller's own. */
export const ZProfilePictureUserRequest = z
  .object({
    member_id: z.coerce
      .number({ error: 'validation.wrong_type' })
      .int({ error: 'validation.wrong_type' })
      .positive({ error: 'validation.wrong_type' })
      .max(Number.MAX_SAFE_INTEGER, { error: 'validation.wrong_type' })
      .optional(),
  })
  .nullish();
export type TProfilePictureUserRequest = z.infer<typeof ZProfilePictureUserRequest>;
export const ZProfilePictureUserResponse = z.object({ profileurl: z.string().nullable() });
export type TProfilePictureUserResponse = z.infer<typeof ZProfilePictureUserResponse>;

/** POST /api/profilepictures/set */
export const ZProfilePictureSetRequest = z.object({
  picture_id: z
    .number({
      error: (issue) =>
        issue.input === undefined ? 'validation.required.picture_id' : 'validation.wrong_type',
    })
    .int({ error: 'validation.wrong_type' })
    .positive({ error: 'validation.wrong_type' })
    .max(2_147_483_647, { error: 'validation.wrong_type' }),
});
export type TProfilePictureSetRequest = z.infer<typeof ZProfilePictureSetRequest>;
export const ZProfilePictureSetResponse = ZProfilePictureUserResponse;
