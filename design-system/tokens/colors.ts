import { defineTokens } from '@pandacss/dev'

/**
 * Colour palette. Every foreground/background pair used by the recipes has a
 * contrast ratio of at least 4.5:1 (WCAG AA for normal text).
 */
export const colors = defineTokens.colors({
  white: { value: '#ffffff' },
  black: { value: '#000000' },
  brand: {
    50: { value: '#e8f5ef' },
    100: { value: '#c9e8d9' },
    600: { value: '#0d7a58' },
    700: { value: '#0b6e4f' },
    800: { value: '#08573f' },
    900: { value: '#063f2e' },
  },
  gray: {
    50: { value: '#f6f7f8' },
    100: { value: '#eceef0' },
    200: { value: '#d9dde1' },
    500: { value: '#6b7680' },
    600: { value: '#4a5560' },
    800: { value: '#2a333c' },
    900: { value: '#1f2933' },
  },
  red: {
    50: { value: '#fdecea' },
    700: { value: '#b42318' },
  },
  green: {
    50: { value: '#e9f6ec' },
    700: { value: '#146c2e' },
  },
  blue: {
    50: { value: '#e8f0fa' },
    700: { value: '#0b5394' },
  },
  amber: {
    50: { value: '#fdf3e1' },
    700: { value: '#8a5300' },
  },
})
