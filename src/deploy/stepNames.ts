/** The steps of a deployment, in order. */
export const STEP_NAMES = [
  'deployer',
  'usdc',
  'upload-vault',
  'upload-executor',
  'upload-registry',
  'deploy-vault',
  'deploy-registry',
  'link-vault',
  'link-registry',
  'set-venues',
  'verify',
] as const
export type StepName = (typeof STEP_NAMES)[number]
