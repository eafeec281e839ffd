import { defineConfig } from '@pandacss/dev'
import { preset } from './design-system/preset.ts'

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}', './design-system/**/*.{ts,tsx}'],
  exclude: ['./**/*.test.ts'],
  outdir: 'styled-system',
  // esbuild cannot resolve the generated `.mjs` imports without this
  outExtension: 'js',
  jsxFramework: 'react',
  // preset-base gives utilities and conditions; preset-panda's large palette is left out
  presets: ['@pandacss/preset-base', preset],
  minify: true,
  hash: false,
})
