import { defineRecipe } from '@pandacss/dev'

/** Button: 44 px minimum target, visible focus ring, AA contrast in every variant. */
export const buttonRecipe = defineRecipe({
  className: 'button',
  description: 'Action button',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    minHeight: 'touch',
    minWidth: 'touch',
    px: '4',
    borderRadius: 'md',
    borderWidth: '2px',
    borderStyle: 'solid',
    fontWeight: 'medium',
    fontSize: 'md',
    lineHeight: 'tight',
    cursor: 'pointer',
    textDecoration: 'none',
    transition: 'background-color 120ms, color 120ms',
    _focusVisible: { outline: '3px solid {colors.blue.700}', outlineOffset: '2px' },
    _disabled: { opacity: 0.6, cursor: 'not-allowed' },
  },
  variants: {
    variant: {
      solid: {
        bg: 'brand.700',
        borderColor: 'brand.700',
        color: 'white',
        _hover: { bg: 'brand.800', borderColor: 'brand.800' },
      },
      outline: {
        bg: 'white',
        borderColor: 'brand.700',
        color: 'brand.800',
        _hover: { bg: 'brand.50' },
      },
      ghost: {
        bg: 'transparent',
        borderColor: 'transparent',
        color: 'gray.900',
        _hover: { bg: 'gray.100' },
      },
      danger: {
        bg: 'red.700',
        borderColor: 'red.700',
        color: 'white',
      },
    },
    size: {
      md: {},
      icon: { px: '0', width: 'touch', height: 'touch' },
    },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
  // variants arrive through <Button variant=…> props, which the extractor cannot follow
  staticCss: [{ variant: ['*'], size: ['*'] }],
})
